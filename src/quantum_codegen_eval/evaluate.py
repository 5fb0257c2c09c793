"""``evaluate(predictions, benchmark)``: judge every completion, then score.

>>> report = evaluate({"QPC001_A1": [code]}, "qcoder", data_dir="qcoder-data")  # doctest: +SKIP
>>> report.summary["pass@k"]["pass@1"]  # doctest: +SKIP

The flow: predictions are read into samples (:mod:`.predictions`); each sample's judge plans its
jobs; all jobs of all samples go through one sandbox pool and results stream back; when the last
job of a sample is back its verdict is decided, given its error class (:func:`.verdict.
with_error_class`) and appended to the result store, so an interrupted run resumes
(``resume=True``) without redoing or duplicating a sample. The code metrics are computed at the
end (:mod:`.scoring`) and the report renders the lot (:mod:`.report`).

Samples of one problem whose program is identical (what a ``deterministic`` judge ``reads``:
:func:`.judges.base.program_key`) are judged once; every copy gets that verdict and its own
record. ``scheduler=`` / ``executor=`` send the jobs to a dask cluster (:mod:`.cluster`).
"""

from __future__ import annotations

import hashlib
import signal
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from .benchmarks.base import Benchmark, UsageError, get
from .judges.base import Planned, drive_stages, plan, program_key
from .predictions import Sample, read_predictions
from .verdict import Verdict, classify_error, with_error_class

if TYPE_CHECKING:
    from .report import Report

_SCORED = ("codebleu", "rouge_l", "hallucination")  # the metrics computed after judging
DEFAULT_METRICS = ("pass@k", "partial_credit", "codebleu", "rouge_l", "hallucination", "errors")


class EvaluationInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`evaluate`: in-flight jobs were stopped; ``kept`` results (of
    ``total`` samples) are in ``store`` and a run with ``resume=True`` continues from there."""

    def __init__(self, kept: int, total: int, store: Path | None):
        super().__init__(f"interrupted: {kept} of {total} results kept"
                         + (f" in {store}" if store else ""))
        self.kept, self.total, self.store = kept, total, store


class SetupIncomplete(UsageError):
    """The machine cannot run the benchmark's jobs: a package they import is missing from the
    interpreter that runs them (an extra of this package not installed, a broken environment).
    The run stops before judging such a job, since every program would fail through no fault of
    its own; verdicts decided before it are kept in the store."""


class StoreInUse(FileExistsError):
    """The result store already holds results and ``resume`` was not asked for."""

    def __init__(self, store: Path):
        super().__init__(f"result store {store} already has results: pass resume=True to "
                         "continue it, or choose another store")
        self.store = store


def completion_hash(completion: str) -> str:
    return hashlib.sha256(completion.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def format_verdict(benchmark: str, sample: Sample, message: str) -> Verdict:
    return Verdict(benchmark=benchmark, problem_id=sample.problem_id, status="FORMAT",
                   error_class=classify_error("FORMAT"), message=message)


#: seconds between two progress lines when stderr is not a terminal (a log file)
LOG_INTERVAL = 30.0


class _Progress:
    """A progress bar shown from the start (worker warm-up included), refreshed while waiting
    so the clock moves; into a log (stderr not a terminal) a line at most every
    ``LOG_INTERVAL`` seconds; a no-op when disabled."""

    def __init__(self, total: int, enabled: bool, done: int = 0):
        self.bar = None
        self.tty = sys.stderr.isatty()
        if enabled and total:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, initial=done, unit="sample", file=sys.stderr,
                            leave=not self.tty, desc="judging (starting workers)",
                            **({} if self.tty else {"mininterval": LOG_INTERVAL,
                                                    "maxinterval": LOG_INTERVAL}))
        self.started = False

    def update(self, n: int = 1) -> None:
        if self.bar is not None:
            if not self.started:
                self.started = True
                self.bar.set_description("judging", refresh=False)
            self.bar.update(n)

    def refresh(self) -> None:
        if self.bar is not None and self.tty:
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _status(message: str, enabled: bool) -> None:
    if enabled:
        print(message, file=sys.stderr, flush=True)


class JudgingOptions(TypedDict, total=False):
    """How :func:`evaluate` judges: its keyword options other than the run's own (``k``,
    ``metrics``, ``store``, ``resume``), declared once. Drivers that judge through ``evaluate``
    (:func:`.refinement.refine_all`) take them as ``**options: Unpack[JudgingOptions]`` and pass
    them on, so an option added to ``evaluate`` and here reaches them without an edit
    (``tests/core/test_refinement.py`` checks that this and ``evaluate``'s signature agree)."""

    workers: int | None
    data_dir: str | Path | None
    problems: dict[str, Any] | None
    judge: Any
    sandbox: Any
    judge_options: dict[str, Any] | None
    progress: bool
    judge_copies: bool
    scheduler: Any
    executor: Any
    input_format: str


#: ``evaluate``'s keywords that belong to the run, not to how it judges (not in JudgingOptions)
RUN_KEYWORDS = ("k", "metrics", "store", "resume")


def evaluate(
    predictions: Any,
    benchmark: str | Benchmark,
    config: str | None = None,
    *,
    k: Sequence[int] = (1, 5),
    metrics: Iterable[str] = DEFAULT_METRICS,
    workers: int | None = None,
    store: str | Path | None = None,
    resume: bool = False,
    data_dir: str | Path | None = None,
    problems: dict[str, Any] | None = None,
    judge: Any = None,
    sandbox: Any = None,
    judge_options: dict[str, Any] | None = None,
    progress: bool = False,
    judge_copies: bool = False,
    scheduler: Any = None,
    executor: Any = None,
    input_format: str = "auto",
) -> Report:
    """Judge and score ``predictions`` on ``benchmark``; returns a :class:`~.report.Report`.

    ``problems`` (records by id) and ``judge`` override the benchmark's own, e.g. for a local
    subset. ``store`` is a JSONL result store: with ``resume=True`` samples already in it (same
    completion, or the same program of a deterministic judge) are not judged again; without it an
    existing store is an error, never appended to. Identical programs of one problem are judged
    once unless ``judge_copies``. ``scheduler`` (a dask scheduler address or ``Client``) or
    ``executor`` (e.g. ``client.get_executor()``) spread the jobs over a cluster; a
    :class:`~.cluster.ClusterError` stops the run with every decided verdict stored.
    Ctrl-C raises :class:`EvaluationInterrupted` once in-flight jobs are stopped.
    ``input_format`` of a predictions file: ``auto`` (told from its content), ``jsonl``,
    ``lm-eval``, ``openai-batch`` or ``inspect`` (:mod:`.inputs`; docs/input-formats.md).
    """
    from .cluster import Cluster, ClusterError
    from .execution import (
        ExecutorError,
        InterpreterMissing,
        PackageMissing,
        ResultStore,
        Sandbox,
    )
    from .scoring import score, summarise

    started = time.time()
    k = tuple(k)
    bad_k = [x for x in k if not isinstance(x, int) or isinstance(x, bool) or x < 1]
    if bad_k:  # before judging anything, not after
        raise ValueError(f"pass@k: k must be a positive integer, got {bad_k[0]!r}")
    if sandbox is not None and (scheduler is not None or executor is not None):
        raise ValueError("give sandbox= or scheduler=/executor=, not both")
    bench = benchmark if isinstance(benchmark, Benchmark) else get(benchmark)
    if config is not None or problems is None:  # the default config, named in the report
        config = bench.check_judged_config(config)
    if judge is None:
        judge = bench.make_judge(**(judge_options or {}))
    samples, missing = _read_input(predictions, input_format)
    given_problems = problems is not None
    if problems is None:
        _status(f"loading {bench.name}" + (f" ({config})" if config else "") + " ...", progress)
        problems = bench.loader.problems(config, data_dir=data_dir)

    result_store = None
    done: dict[str, dict[str, Any]] = {}
    store_path = Path(store) if store is not None else None
    if store_path is not None:
        if store_path.exists() and not store_path.is_file():
            raise ValueError(f"result store {store_path} is not a file")
        if store_path.exists() and store_path.stat().st_size and not resume:
            raise StoreInUse(store_path)
        store_path.parent.mkdir(parents=True, exist_ok=True)
        result_store = ResultStore(store_path, key="key")
        done = {record["key"]: record for record in result_store.records()}

    planned: dict[str, tuple[Sample, list[Any]]] = {}
    prepare = getattr(judge, "prepare", None)
    if prepare is not None:  # e.g. era environments: created (and announced) before the bar starts
        try:
            prepare([problems[pid] for pid in dict.fromkeys(s.problem_id for s in samples
                                                           if s.key not in done) if pid in problems])
        except Exception:  # noqa: BLE001 - each sample's planning meets it and reports it
            pass
    run = _Run(bench.name, config, result_store)
    programs = _program_keys(samples, problems, judge)
    by_program = _stored_programs(done.values(), run)
    bar = _Progress(len(samples), progress)
    own_sandbox = False
    cluster = None
    try:
        for sample in samples:
            key = sample.key
            group = None if judge_copies else programs.get(key)
            prior = done.get(key)
            if prior is not None:
                run.verdicts[key] = with_error_class(_stored_verdict(store, prior, sample,
                                                                     bench.name, config))
                if group is not None:
                    run.decided.setdefault(group, (key, run.verdicts[key]))
                bar.update()
                continue
            if group is not None and group not in run.decided and group in by_program:
                run.decided[group] = _stored_program(store, by_program[group], sample, run)
            if group is not None and group in run.decided:
                first, verdict = run.decided[group]
                run.finish(sample, verdict, same_as=first, group=group)
                bar.update()
                continue
            if group is not None and group in run.leaders:  # its first copy is being judged
                run.copies.setdefault(run.leaders[group], []).append(sample)
                continue
            if sample.format_error:
                verdict = format_verdict(bench.name, sample, sample.format_error)
            elif sample.problem_id not in problems:
                verdict = format_verdict(
                    bench.name, sample,
                    f"{sample.source}: unknown problem id {sample.problem_id!r} for {bench.name}"
                    + (f" config {config!r}" if config else ""))
            else:
                jobs = plan(judge, problems[sample.problem_id], sample.completion,
                            sample.problem_id)
                if not isinstance(jobs, Verdict):
                    planned[key] = (sample, list(jobs))
                    if group is not None:
                        run.leaders[group] = key
                    continue
                verdict = jobs
            run.finish(sample, verdict, group=group)
            bar.update()

        own_sandbox = sandbox is None and any(jobs for _, jobs in planned.values())
        if own_sandbox:
            cluster = Cluster.connect(scheduler, executor, workers)
            if cluster is not None:
                cluster.check_workers(_interpreters(bench, planned))
                from .cluster import MAX_IN_FLIGHT

                sandbox = Sandbox(executor=cluster.executor, workers=MAX_IN_FLIGHT)
            else:
                sandbox = Sandbox(workers=workers)
        if planned:
            slots = cluster.slots if cluster is not None else None
            _run_planned(planned, judge, problems, sandbox, run, bar, slots)
    except KeyboardInterrupt:
        _stop(sandbox if own_sandbox else None, result_store, bar)
        # every decided verdict is in the store (saved as it was decided, or read from it)
        raise EvaluationInterrupted(len(run.verdicts), len(samples), store_path) from None
    except PackageMissing as exc:
        _stop(sandbox if own_sandbox else None, result_store, bar)
        from .hints import missing_package_message

        fix = missing_package_message(exc.python, exc.missing, exc.own,
                                      _interpreters(bench, planned).get(exc.python))
        raise SetupIncomplete(f"{bench.name} cannot be judged here: {exc}; {fix}"
                              + (f"; {len(run.verdicts)} of {len(samples)} results kept in "
                                 f"{store_path}" if store_path else "")) from None
    except (ExecutorError, ClusterError) as exc:
        _stop(sandbox if own_sandbox else None, result_store, bar)
        message = str(exc)
        if isinstance(exc, InterpreterMissing):
            from .cluster import missing_interpreter_message

            message = missing_interpreter_message(exc.python, exc.worker,
                                                  _interpreters(bench, planned))
        raise ClusterError(f"{message}; {len(run.verdicts)} of {len(samples)} results kept"
                           + (f" in {store_path}" if store_path else "")) from None
    finally:
        _stop(sandbox if own_sandbox else None, result_store, bar)
        if cluster is not None:
            cluster.close()

    scored = [m for m in metrics if m in _SCORED and (m != "hallucination"
                                                     or bench.language(config) == "pennylane")]
    _status(f"scoring {len(samples)} samples ({', '.join(scored)}) ...", progress and bool(scored))
    scores = score(bench, config, samples, problems, metrics)
    report = summarise(bench=bench, config=config, samples=samples, verdicts=run.verdicts,
                       problems=problems, scores=scores, k=tuple(k), metrics=tuple(metrics),
                       seconds=time.time() - started)
    report.summary["programs"] = _program_counts(samples, programs, judge_copies)
    if missing:
        report.summary["missing"] = missing
    report.provenance = _provenance(bench, config, judge, problems, samples, started,
                                    workers if workers is not None
                                    else getattr(sandbox, "workers", None),
                                    data_dir, given_problems, store_path, predictions)
    return report


def _read_input(predictions: Any, input_format: str) -> tuple[list[Sample], list[str]]:
    """The samples, and the requests the generating tool reports as failed (missing: listed,
    never judged, so a problem has fewer samples; never a wrong answer)."""
    from .inputs import FORMATS, InputFormatError, read_input

    if not isinstance(predictions, (str, Path)):
        if input_format not in ("auto", "jsonl"):
            raise UsageError(f"input format {input_format!r} needs a file; got "
                             f"{type(predictions).__name__}")
        return read_predictions(predictions), []
    if input_format not in FORMATS:
        raise UsageError(f"unknown input format {input_format!r}; known: {', '.join(FORMATS)}")
    try:
        inputs = read_input(predictions, input_format)
    except InputFormatError as exc:
        raise UsageError(str(exc)) from None
    if inputs.missing:
        print(f"qce: {len(inputs.missing)} requests failed in {Path(predictions).name} "
              f"({inputs.format}; missing, not judged): {inputs.missing[0]}"
              + (" ..." if len(inputs.missing) > 1 else ""), file=sys.stderr)
    return inputs.samples, inputs.missing


def _provenance(bench, config, judge, problems, samples, started, workers, data_dir,
                given_problems, store_path, predictions=None):
    """The run's provenance; also written next to the result store (``<store>.provenance.json``)
    so that ``compare`` can read a store as a run."""
    from .report import strict_json
    from .run_provenance import collect

    data = (str(data_dir) if data_dir is not None else "problems given" if given_problems
            else "default (package or cache)")
    try:
        prov = collect(bench=bench, config=config, judge=judge, records=problems,
                       judged=[s.problem_id for s in samples], started=started,
                       seconds=time.time() - started, workers=workers, data=data)
    except Exception as exc:  # noqa: BLE001 - the verdicts must never be lost for it
        print(f"qce: no provenance for this run ({type(exc).__name__}: {exc}); compare will "
              "refuse it without --allow-mismatch", file=sys.stderr)
        return None
    from dataclasses import replace

    from .rag import retrieval_facts

    try:  # RAG prompts: their settings, in the run facts (never comparability)
        retrieval = retrieval_facts(predictions)
    except ValueError as exc:
        print(f"qce: {exc}", file=sys.stderr)
        retrieval = {"error": str(exc)}
    if retrieval is not None:
        prov = replace(prov, extra={**prov.extra, "retrieval": retrieval})
    if store_path is not None:
        sidecar = store_path.with_name(store_path.name + ".provenance.json")
        try:
            sidecar.write_text(strict_json(prov.to_dict(), indent=2))
        except OSError as exc:
            print(f"qce: cannot write {sidecar}: {exc.strerror}", file=sys.stderr)
    return prov


def _stop(sandbox: Any, store: Any, bar: _Progress) -> None:
    """Close what a run opened (idempotent); a second Ctrl-C meanwhile is ignored."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        bar.close()
        if sandbox is not None:
            sandbox.close()  # kills the jobs still running
        if store is not None:
            store.close()
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


@dataclass
class _Run:
    """The verdicts of one run and the bookkeeping of identical programs: a program's first
    copy (its leader) is judged, later copies wait for it or reuse a decided verdict."""

    benchmark: str
    config: str | None
    store: Any
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    #: program -> (key of the sample judged for it, its verdict)
    decided: dict[tuple[str, str], tuple[str, Verdict]] = field(default_factory=dict)
    leaders: dict[tuple[str, str], str] = field(default_factory=dict)  # program -> leader key
    copies: dict[str, list[Sample]] = field(default_factory=dict)  # leader key -> waiting copies

    def finish(self, sample: Sample, verdict: Verdict, *, same_as: str | None = None,
               group: tuple[str, str] | None = None) -> list[Sample]:
        """Record ``sample``'s verdict (stored at once); returns the copies it decides too."""
        verdict = with_error_class(verdict)
        self.verdicts[sample.key] = verdict
        if self.store is not None:
            _save(self.store, sample, verdict, (self.benchmark, self.config),
                  program=group[1] if group else None, same_as=same_as)
        if group is not None and same_as is None:
            self.decided.setdefault(group, (sample.key, verdict))
        waiting = self.copies.pop(sample.key, [])
        for copy in waiting:
            self.finish(copy, verdict, same_as=sample.key, group=group)
        return waiting


def _program_keys(samples: list[Sample], problems: dict[str, Any], judge: Any
                  ) -> dict[str, tuple[str, str]]:
    """sample key -> (problem id, program key) for the samples a copy of which may share a
    verdict (a known problem, a deterministic judge)."""
    out: dict[str, tuple[str, str]] = {}
    for s in samples:
        if s.format_error or s.problem_id not in problems:
            continue
        try:
            key = program_key(judge, s.completion, problems[s.problem_id])
        except Exception:  # noqa: BLE001 - judged on its own; the judge will say what is wrong
            key = None
        if key is not None:
            out[s.key] = (s.problem_id, key)
    return out


def _program_counts(samples: list[Sample], programs: dict[str, tuple[str, str]],
                    judge_copies: bool) -> dict[str, Any]:
    """distinct / total: a sample without a program key counts as a distinct program."""
    distinct = len(set(programs.values())) + sum(s.key not in programs for s in samples)
    return {"samples": len(samples), "distinct": distinct, "copies": len(samples) - distinct,
            "copies_judged_once": not judge_copies}


def _stored_programs(records: Iterable[dict[str, Any]], run: _Run
                     ) -> dict[tuple[str, str], dict[str, Any]]:
    """(problem id, program key) -> the first stored record judged for it in this benchmark
    and config (a resumed copy reuses it)."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for rec in records:
        program = rec.get("program_key")
        if (isinstance(program, str) and isinstance(rec.get("problem_id"), str)
                and (rec.get("benchmark"), rec.get("config")) == (run.benchmark, run.config)):
            out.setdefault((rec["problem_id"], program), rec)
    return out


def _stored_program(store: Any, record: dict[str, Any], sample: Sample, run: _Run
                    ) -> tuple[str, Verdict]:
    """A stored verdict of the same program, for a copy judged in no earlier run."""
    try:
        verdict = Verdict.from_dict(record["verdict"])
    except Exception as exc:  # noqa: BLE001 - a hand-edited or foreign record
        raise ValueError(f"result store {store}: {record.get('key')}: unreadable stored verdict "
                         f"({type(exc).__name__}); use a new store") from None
    if verdict.problem_id != sample.problem_id:
        raise ValueError(f"result store {store}: {record.get('key')} holds a verdict of "
                         f"{verdict.problem_id!r}, not {sample.problem_id!r}; use a new store")
    return str(record.get("key")), with_error_class(verdict)


def _interpreters(bench: Benchmark, planned: dict[str, tuple[Sample, list[Any]]]
                  ) -> dict[str, str | None]:
    """The interpreters the planned jobs name -> the benchmark's environment of that path."""
    paths = {job.python for _, jobs in planned.values() for job in jobs
             if getattr(job, "python", None)}
    names: dict[str, str] = {}
    if paths and bench.environments:
        manager = bench.loader.environments()
        for name in bench.environments:
            try:
                names[str(manager.env_python(name, create=False))] = name
            except (FileNotFoundError, ValueError):
                continue
    return {p: names.get(p) for p in sorted(paths)}


def _save(store: Any, sample: Sample, verdict: Verdict, run: tuple[str, str | None], *,
          program: str | None = None, same_as: str | None = None) -> None:
    record = {"key": sample.key, "problem_id": sample.problem_id, "sample": sample.index,
              "benchmark": run[0], "config": run[1],
              "completion_hash": completion_hash(sample.completion), "verdict": verdict.to_dict()}
    if program is not None:
        record["program_key"] = program
    if same_as is not None:
        record["same_program_as"] = same_as
    store.add(record)


def _stored_verdict(store: Any, prior: dict[str, Any], sample: Sample, benchmark: str,
                    config: str | None) -> Verdict:
    """The verdict a resumed run reuses: only one judged in the same benchmark and config, for
    the byte-identical completion; anything else is an error naming the store and the sample."""
    where = f"result store {store}: {sample.key}"
    if prior.get("completion_hash") != completion_hash(sample.completion):
        raise ValueError(f"{where} was judged for a different completion than {sample.source} "
                         "gives now; use a new store for changed predictions")
    try:
        verdict = Verdict.from_dict(prior["verdict"])
    except Exception as exc:  # noqa: BLE001 - a hand-edited or foreign record
        raise ValueError(f"{where}: unreadable stored verdict ({type(exc).__name__}); use a new "
                         "store") from None
    was = (prior.get("benchmark", benchmark), prior.get("config", config))  # older stores: unchecked
    if was != (benchmark, config) or verdict.problem_id != sample.problem_id:
        raise ValueError(f"{where} was judged in another run ({was[0]}, config {was[1]!r}; this "
                         f"run: {benchmark}, config {config!r}); use a new store")
    return verdict


def _run_planned(planned, judge, problems, sandbox, run: _Run, bar, slots=None) -> None:
    """Every planned sample through the one stage driver (``judges.base.drive_stages``); each
    verdict is finished (stored, its copies given it) as it is decided."""
    run_groups = {leader: group for group, leader in run.leaders.items()}

    def finish(key: str, verdict: Verdict) -> None:
        sample, _ = planned[key]
        copies = run.finish(sample, verdict, group=run_groups.get(key))
        bar.update(1 + len(copies))

    drive_stages(judge, {key: Planned(problems[sample.problem_id], sample.problem_id,
                                      sample.completion, jobs)
                         for key, (sample, jobs) in planned.items()},
                 sandbox, finish, slots=slots, tick=bar.refresh)


class _CallableModule(type(sys)):
    """Importing this submodule rebinds ``quantum_codegen_eval.evaluate`` to the module (Python
    sets the package attribute after any submodule import), so the module calls the function."""

    def __call__(self, *args: Any, **kwargs: Any) -> Report:
        return evaluate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
