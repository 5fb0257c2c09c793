"""``evaluate(predictions, benchmark)``: judge every completion, then score.

>>> report = evaluate({"QPC001_A1": [code]}, "qcoder", data_dir="qcoder-data")  # doctest: +SKIP
>>> report.summary["pass@k"]["pass@1"]  # doctest: +SKIP

The path, one way down, each step a unit of its own (``evaluate`` calls them in this order):
:func:`read_samples` (predictions -> samples, :mod:`.predictions`, :mod:`.inputs`) ->
:func:`open_store` (the result store and the verdicts already in it) -> :func:`plan_samples`
(a :class:`Plan`: each sample decided at once or its judge's first jobs, identical programs
planned once) -> :func:`judge_plan` (a sandbox pool or a dask cluster, the one stage driver
:func:`.judges.base.drive_stages`; each verdict is given its error class
(:func:`.verdict.with_error_class`) and appended to the store as it is decided, so an
interrupted run resumes with ``resume=True`` without redoing or duplicating a sample) ->
:func:`score_run` (the code metrics, :mod:`.scoring`, and the summary) -> the report
(:mod:`.report`) with its provenance.

Samples of one problem whose program is identical (what a ``deterministic`` judge ``reads``:
:func:`.judges.base.program_key`) are judged once; every copy gets that verdict and its own
record. ``scheduler=`` / ``executor=`` send the jobs to a dask cluster (:mod:`.cluster`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from ._evaluate_plan import (
    Plan,
    Progress,
    completion_hash,
    program_keys,
    sample_codes,
    status_line,
    stored_program,
    stored_programs,
    stored_verdict,
)
from .benchmarks.base import Benchmark, UsageError, get
from .judges.base import Planned, drive_stages, plan
from .predictions import Sample, read_predictions
from .verdict import Verdict, classify_error, with_error_class

if TYPE_CHECKING:
    from .execution import ResultStore
    from .report import Report

__all__ = ["DEFAULT_METRICS", "RUN_KEYWORDS", "EvaluationInterrupted", "JudgingOptions", "Plan",
           "SetupIncomplete", "StoreInUse", "completion_hash", "evaluate", "format_verdict",
           "judge_plan", "open_store", "plan_samples", "read_samples", "score_run"]

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


def format_verdict(benchmark: str, sample: Sample, message: str) -> Verdict:
    return Verdict(benchmark=benchmark, problem_id=sample.problem_id, status="FORMAT",
                   error_class=classify_error("FORMAT"), message=message)


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
    elif getattr(judge, "extract", None) is None:  # a judge made directly: this benchmark's rule
        judge.extract = bench.extract
    samples, missing = read_samples(predictions, input_format)
    given_problems = problems is not None
    if problems is None:
        status_line(f"loading {bench.name}" + (f" ({config})" if config else "") + " ...", progress)
        problems = bench.loader.problems(config, data_dir=data_dir)
    result_store, done = open_store(store, resume)
    planned = plan_samples(samples, bench, config, judge, problems, store=result_store, done=done,
                           judge_copies=judge_copies, progress=progress)
    pool = judge_plan(planned, sandbox=sandbox, scheduler=scheduler, executor=executor,
                      workers=workers)
    report = score_run(bench, config, samples, planned.verdicts, problems, k=k, metrics=metrics,
                       started=started, progress=progress,
                       summary={"programs": planned.program_counts(),
                                **({"missing": missing} if missing else {})})
    report.provenance = _provenance(bench, config, judge, problems, samples, started,
                                    workers if workers is not None else pool, data_dir,
                                    given_problems, planned.store_path, predictions)
    return report


def read_samples(predictions: Any, input_format: str = "auto") -> tuple[list[Sample], list[str]]:
    """Step 1, read: the samples of ``predictions`` (a file in ``input_format``, or rows /
    a mapping: :func:`.predictions.read_predictions`), and the requests the generating tool
    reports as failed (missing: listed, never judged, so a problem has fewer samples; never a
    wrong answer)."""
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


def open_store(store: str | Path | None, resume: bool = False
               ) -> tuple[ResultStore | None, dict[str, dict[str, Any]]]:
    """Step 2, the result store: ``(store, its records by sample key)``; ``(None, {})`` without
    one. A store that already holds results is :class:`StoreInUse` unless ``resume``; its
    folder is created. Whoever judges closes it (:func:`judge_plan`, or :meth:`Plan.close`)."""
    from .execution import ResultStore

    if store is None:
        return None, {}
    store_path = Path(store)
    if store_path.exists() and not store_path.is_file():
        raise ValueError(f"result store {store_path} is not a file")
    if store_path.exists() and store_path.stat().st_size and not resume:
        raise StoreInUse(store_path)
    store_path.parent.mkdir(parents=True, exist_ok=True)
    result_store = ResultStore(store_path, key="key")
    return result_store, {record["key"]: record for record in result_store.records()}


def plan_samples(samples: list[Sample], bench: Benchmark, config: str | None, judge: Any,
                 problems: dict[str, Any], *, store: ResultStore | None = None,
                 done: Mapping[str, dict[str, Any]] | None = None, judge_copies: bool = False,
                 progress: bool = False) -> Plan:
    """Step 3, plan: each sample decided at once (its verdict in ``done``, the store's records;
    a copy of a program already decided, in this run or in the store; ``FORMAT``; an unknown
    problem id; a verdict the judge gives without running anything), or its judge's first jobs
    (``plan.jobs``), or waiting for the first copy of its program (``plan.copies``; every copy
    when ``judge_copies``). Decided verdicts are appended to ``store`` at once. The judge's
    ``prepare`` (e.g. era environments) runs first, before the progress bar starts. On an
    error the store is closed; Ctrl-C raises :class:`EvaluationInterrupted`."""
    done = done if done is not None else {}
    prepare = getattr(judge, "prepare", None)
    if prepare is not None:  # e.g. era environments: created (and announced) before the bar starts
        try:
            prepare([problems[pid] for pid in dict.fromkeys(s.problem_id for s in samples
                                                           if s.key not in done) if pid in problems])
        except Exception:  # noqa: BLE001 - each sample's planning meets it and reports it
            pass
    codes = sample_codes(samples, problems, judge)
    run = Plan(bench, config, judge, problems, samples,
               program_keys(samples, problems, judge, codes), codes, judge_copies, store)
    by_program = stored_programs(done.values(), bench.name, config)
    run.bar = Progress(len(samples), progress)
    try:
        for sample in samples:
            key, group, prior = sample.key, run.group(sample), done.get(sample.key)
            if prior is not None:
                run.verdicts[key] = with_error_class(stored_verdict(run.store_path, prior, sample,
                                                                    bench.name, config))
                if group is not None:
                    run.decided.setdefault(group, (key, run.verdicts[key]))
                run.bar.update()
                continue
            if group is not None and group not in run.decided and group in by_program:
                run.decided[group] = stored_program(run.store_path, by_program[group], sample)
            if group is not None and group in run.decided:
                first, verdict = run.decided[group]
                run.finish(sample, verdict, same_as=first, group=group)
                run.bar.update()
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
                code = codes[key]
                jobs = code if isinstance(code, Verdict) else plan(
                    judge, problems[sample.problem_id], code, sample.problem_id)
                if not isinstance(jobs, Verdict):
                    run.jobs[key] = (sample, list(jobs))
                    if group is not None:
                        run.leaders[group] = key
                    continue
                verdict = jobs
            run.finish(sample, verdict, group=group)
            run.bar.update()
    except KeyboardInterrupt:
        run.close()
        # every decided verdict is in the store (saved as it was decided, or read from it)
        raise EvaluationInterrupted(len(run.verdicts), len(samples), run.store_path) from None
    except BaseException:
        run.close()
        raise
    return run


def judge_plan(run: Plan, *, sandbox: Any = None, scheduler: Any = None, executor: Any = None,
               workers: int | None = None) -> int | None:
    """Step 4, judge: every planned sample through the one stage driver
    (:func:`.judges.base.drive_stages`) in ``sandbox``, or in a pool of its own: on the dask
    cluster of ``scheduler`` / ``executor`` (its workers checked for the jobs' interpreters
    first) or local (``workers``). Each verdict is finished as it is decided (stored, its
    waiting copies given it). Returns the pool's size (for the provenance; ``None`` when
    nothing ran and no ``sandbox`` was given). Always closes the plan's store and bar and its
    own pool; Ctrl-C raises :class:`EvaluationInterrupted`, a missing package
    :class:`SetupIncomplete`, a failed executor or cluster :class:`~.cluster.ClusterError`,
    each saying how many verdicts the store keeps."""
    from .cluster import MAX_IN_FLIGHT, Cluster, ClusterError
    from .execution import ExecutorError, InterpreterMissing, PackageMissing, Sandbox

    own_sandbox = sandbox is None and any(jobs for _, jobs in run.jobs.values())
    cluster = None
    try:
        if own_sandbox:
            cluster = Cluster.connect(scheduler, executor, workers)
            if cluster is not None:
                cluster.check_workers(run.interpreters())
                sandbox = Sandbox(executor=cluster.executor, workers=MAX_IN_FLIGHT)
            else:
                sandbox = Sandbox(workers=workers)
        if run.jobs:
            _run_planned(run, sandbox, cluster.slots if cluster is not None else None)
    except KeyboardInterrupt:
        run.close(sandbox if own_sandbox else None)
        # every decided verdict is in the store (saved as it was decided, or read from it)
        raise EvaluationInterrupted(len(run.verdicts), len(run.samples), run.store_path) from None
    except PackageMissing as exc:
        run.close(sandbox if own_sandbox else None)
        from .hints import missing_package_message

        fix = missing_package_message(exc.python, exc.missing, exc.own,
                                      run.interpreters().get(exc.python))
        raise SetupIncomplete(f"{run.bench.name} cannot be judged here: {exc}; {fix}"
                              + (f"; {run.kept()} in {run.store_path}" if run.store_path
                                 else "")) from None
    except (ExecutorError, ClusterError) as exc:
        run.close(sandbox if own_sandbox else None)
        message = str(exc)
        if isinstance(exc, InterpreterMissing):
            from .cluster import missing_interpreter_message

            message = missing_interpreter_message(exc.python, exc.worker, run.interpreters())
        raise ClusterError(f"{message}; {run.kept()}"
                           + (f" in {run.store_path}" if run.store_path else "")) from None
    finally:
        run.close(sandbox if own_sandbox else None)
        if cluster is not None:
            cluster.close()
    return getattr(sandbox, "workers", None)


def _run_planned(run: Plan, sandbox: Any, slots: Any = None) -> None:
    """The plan's jobs through the one stage driver (``judges.base.drive_stages``); each
    verdict is finished (stored, its copies given it) as it is decided."""
    groups = {leader: group for group, leader in run.leaders.items()}

    def finish(key: str, verdict: Verdict) -> None:
        sample, _ = run.jobs[key]
        copies = run.finish(sample, verdict, group=groups.get(key))
        run.bar.update(1 + len(copies))

    drive_stages(run.judge, {key: Planned(run.problems[sample.problem_id], sample.problem_id,
                                          run.codes[key], jobs)
                             for key, (sample, jobs) in run.jobs.items()},
                 sandbox, finish, slots=slots, tick=run.bar.refresh)


def score_run(bench: Benchmark, config: str | None, samples: list[Sample],
              verdicts: dict[str, Verdict], problems: dict[str, Any], *, k: Sequence[int],
              metrics: Iterable[str], started: float, progress: bool = False,
              summary: Mapping[str, Any] | None = None) -> Report:
    """Step 5, score: the code metrics of ``samples`` (:func:`.scoring.score`) and the report
    of their ``verdicts`` (:func:`.scoring.summarise`; its time since ``started``), with
    ``summary``'s entries added to ``report.summary`` (``evaluate``: the program counts and
    the missing requests). :func:`.refinement.refine_all` scores its final answers with it."""
    from .scoring import score, summarise

    scored = [m for m in metrics if m in _SCORED and (m != "hallucination"
                                                     or bench.language(config) == "pennylane")]
    status_line(f"scoring {len(samples)} samples ({', '.join(scored)}) ...",
                progress and bool(scored))
    scores = score(bench, config, samples, problems, metrics)
    report = summarise(bench=bench, config=config, samples=samples, verdicts=verdicts,
                       problems=problems, scores=scores, k=tuple(k), metrics=tuple(metrics),
                       seconds=time.time() - started)
    report.summary.update(summary or {})
    return report


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


class _CallableModule(type(sys)):
    """Importing this submodule rebinds ``quantum_codegen_eval.evaluate`` to the module (Python
    sets the package attribute after any submodule import), so the module calls the function."""

    def __call__(self, *args: Any, **kwargs: Any) -> Report:
        return evaluate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
