"""``evaluate(predictions, benchmark)``: judge every completion, then score.

>>> report = evaluate({"QPC001_A1": [code]}, "qcoder", data_dir="qcoder-data")  # doctest: +SKIP
>>> report.summary["pass@k"]["pass@1"]  # doctest: +SKIP

The flow: predictions are read into samples (:mod:`.predictions`); each sample's judge plans its
jobs; all jobs of all samples go through one sandbox pool and results stream back; when the last
job of a sample is back its verdict is decided, given its error class (:func:`.verdict.
with_error_class`) and appended to the result store, so an interrupted run resumes
(``resume=True``) without redoing or duplicating a sample. The code metrics are computed at the
end (:mod:`.scoring`) and the report renders the lot (:mod:`.report`).
"""

from __future__ import annotations

import hashlib
import signal
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .benchmarks.base import Benchmark, get
from .judges.base import judge_error
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
) -> Report:
    """Judge and score ``predictions`` on ``benchmark``; returns a :class:`~.report.Report`.

    ``problems`` (records by id) and ``judge`` override the benchmark's own, e.g. for a local
    subset. ``store`` is a JSONL result store: with ``resume=True`` samples already in it (same
    completion) are not judged again; without it an existing store is an error, never appended to.
    Ctrl-C raises :class:`EvaluationInterrupted` once in-flight jobs are stopped.
    """
    from .execution import ResultStore, Sandbox
    from .scoring import score, summarise

    started = time.time()
    k = tuple(k)
    bad_k = [x for x in k if not isinstance(x, int) or isinstance(x, bool) or x < 1]
    if bad_k:  # before judging anything, not after
        raise ValueError(f"pass@k: k must be a positive integer, got {bad_k[0]!r}")
    bench = benchmark if isinstance(benchmark, Benchmark) else get(benchmark)
    if config is not None or problems is None:  # the default config, named in the report
        config = bench.check_judged_config(config)
    if judge is None:
        judge = bench.make_judge(**(judge_options or {}))
    samples = read_predictions(predictions)
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

    verdicts: dict[str, Verdict] = {}
    planned: dict[str, tuple[Sample, list[Any]]] = {}
    prepare = getattr(judge, "prepare", None)
    if prepare is not None:  # e.g. era environments: created (and announced) before the bar starts
        try:
            prepare([problems[pid] for pid in dict.fromkeys(s.problem_id for s in samples
                                                           if s.key not in done) if pid in problems])
        except Exception:  # noqa: BLE001 - each sample's planning meets it and reports it
            pass
    bar = _Progress(len(samples), progress)
    own_sandbox = False
    try:
        for sample in samples:
            key = sample.key
            prior = done.get(key)
            if prior is not None:
                verdicts[key] = with_error_class(_stored_verdict(store, prior, sample, bench.name,
                                                                 config))
                bar.update()
                continue
            if sample.format_error:
                verdict = format_verdict(bench.name, sample, sample.format_error)
            elif sample.problem_id not in problems:
                verdict = format_verdict(
                    bench.name, sample,
                    f"{sample.source}: unknown problem id {sample.problem_id!r} for {bench.name}"
                    + (f" config {config!r}" if config else ""))
            else:
                try:
                    jobs = judge.jobs(problems[sample.problem_id], sample.completion)
                except Exception as exc:  # a judge bug must not lose the other samples
                    jobs = judge_error(judge, sample.problem_id,
                                       f"failed to plan: {type(exc).__name__}: {exc}")
                if not isinstance(jobs, Verdict):
                    planned[key] = (sample, list(jobs))
                    continue
                verdict = jobs
            verdicts[key] = with_error_class(verdict)
            if result_store is not None:
                _save(result_store, key, sample, verdicts[key], (bench.name, config))
            bar.update()

        own_sandbox = sandbox is None and any(jobs for _, jobs in planned.values())
        if own_sandbox:
            sandbox = Sandbox(workers=workers)
        if planned:
            _run_planned(planned, judge, problems, sandbox, verdicts, result_store, bar,
                         (bench.name, config))
    except KeyboardInterrupt:
        _stop(sandbox if own_sandbox else None, result_store, bar)
        # every decided verdict is in the store (saved as it was decided, or read from it)
        raise EvaluationInterrupted(len(verdicts), len(samples), store_path) from None
    finally:
        _stop(sandbox if own_sandbox else None, result_store, bar)

    scored = [m for m in metrics if m in _SCORED and (m != "hallucination"
                                                     or bench.language(config) == "pennylane")]
    _status(f"scoring {len(samples)} samples ({', '.join(scored)}) ...", progress and bool(scored))
    scores = score(bench, config, samples, problems, metrics)
    return summarise(bench=bench, config=config, samples=samples, verdicts=verdicts,
                     problems=problems, scores=scores, k=tuple(k), metrics=tuple(metrics),
                     seconds=time.time() - started)


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


def _save(store: Any, key: str, sample: Sample, verdict: Verdict,
          run: tuple[str, str | None]) -> None:
    store.add({"key": key, "problem_id": sample.problem_id, "sample": sample.index,
               "benchmark": run[0], "config": run[1],
               "completion_hash": completion_hash(sample.completion), "verdict": verdict.to_dict()})


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


def _run_planned(planned, judge, problems, sandbox, verdicts, store, bar, run) -> None:
    """Run every sample's jobs through one pool, stage by stage; decide a sample when the last
    job of its current stage is back (``decide`` returns the verdict or the next stage)."""
    import heapq
    import itertools
    from concurrent.futures import FIRST_COMPLETED, wait
    from dataclasses import replace

    from .judges.base import MAX_STAGES

    order = itertools.count()
    results: dict[str, list[Any]] = {}
    waiting: dict[str, int] = {}
    stages: dict[str, int] = {}
    futures: dict[Any, tuple[str, int, str]] = {}  # future -> (sample key, result index, job id)

    # Jobs wait here, not in the pool, so that a sample's later stage runs before other samples'
    # first stages: a sample started is finished (and stored) first. At most ``slots`` jobs are
    # in the pool at a time.
    queue: list[tuple[int, int, str, int, Any]] = []  # (-stage, order, key, index, job)
    slots = max(1, int(getattr(sandbox, "workers", 1) or 1))

    def submit(key: str, jobs: list[Any]) -> None:
        start = len(results.setdefault(key, []))
        results[key].extend([None] * len(jobs))
        waiting[key] = len(jobs)
        stages[key] = stages.get(key, 0) + 1
        for j, job in enumerate(jobs):
            heapq.heappush(queue, (-stages[key], next(order), key, start + j, job))

    def feed() -> None:
        while queue and len(futures) < slots:
            _, _, key, index, job = heapq.heappop(queue)
            # pool-wide unique ids; the judge gets its own back
            f = sandbox.submit(replace(job, id=f"{key}::{index}"))
            futures[f] = (key, index, job.id)

    def finish(key: str, verdict: Verdict) -> None:
        sample, _ = planned[key]
        verdicts[key] = verdict = with_error_class(verdict)
        if store is not None:
            _save(store, key, sample, verdict, run)
        bar.update()

    def step(key: str) -> None:
        sample, _ = planned[key]
        try:
            out = judge.decide(problems[sample.problem_id], sample.completion, results[key])
        except Exception as exc:  # a judge bug must not lose the other samples
            out = judge_error(judge, sample.problem_id,
                              f"failed to decide: {type(exc).__name__}: {exc}")
        if isinstance(out, Verdict):
            finish(key, out)
        elif not out:
            finish(key, judge_error(judge, sample.problem_id, "decide() returned no verdict"))
        elif stages[key] >= MAX_STAGES:
            finish(key, judge_error(judge, sample.problem_id, f"more than {MAX_STAGES} stages"))
        else:
            submit(key, list(out))

    for key, (_sample, jobs) in planned.items():
        if jobs:
            submit(key, jobs)
        else:
            stages[key] = 1
            results[key] = []
            step(key)
    feed()
    while futures:
        done, _ = wait(list(futures), timeout=0.5, return_when=FIRST_COMPLETED)
        bar.refresh()
        for f in done:
            key, index, job_id = futures.pop(f)
            results[key][index] = replace(f.result(), id=job_id)
            waiting[key] -= 1
            if waiting[key] == 0:
                step(key)
        feed()


class _CallableModule(type(sys)):
    """Importing this submodule rebinds ``quantum_codegen_eval.evaluate`` to the module (Python
    sets the package attribute after any submodule import), so the module calls the function."""

    def __call__(self, *args: Any, **kwargs: Any) -> Report:
        return evaluate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
