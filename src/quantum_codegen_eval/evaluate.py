"""``evaluate(predictions, benchmark)``: judge every completion, then score.

>>> report = evaluate({"QPC001_A1": [code]}, "qcoder", data_dir="qcoder-data")  # doctest: +SKIP
>>> report.summary["pass@k"]["pass@1"]  # doctest: +SKIP

The flow: predictions are read into samples (:mod:`.predictions`); each sample's judge plans its
jobs; all jobs of all samples go through one sandbox pool and results stream back; when the last
job of a sample is back its verdict is decided and appended to the result store, so an
interrupted run resumes (``resume=True``) without redoing or duplicating a sample. Metrics are
computed from the verdicts and the completions at the end (:mod:`.report`).
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .benchmarks import benchmark_module
from .predictions import Sample, read_predictions
from .verdict import Verdict

DEFAULT_METRICS = ("pass@k", "partial_credit", "codebleu", "rouge_l", "hallucination", "errors")


def completion_hash(completion: str) -> str:
    return hashlib.sha256(completion.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def format_verdict(benchmark: str, sample: Sample, message: str) -> Verdict:
    return Verdict(benchmark=benchmark, problem_id=sample.problem_id, status="FORMAT",
                   error_class="formatting", message=message)


def _progress(total: int, enabled: bool):
    if not enabled or total == 0:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return None
    return tqdm(total=total, desc="judging", unit="sample", file=sys.stderr, leave=False)


def evaluate(
    predictions: Any,
    benchmark: str,
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
):
    """Judge and score ``predictions`` on ``benchmark``; returns a :class:`~.report.Report`.

    ``problems`` (records by id) and ``judge`` override the benchmark's own, e.g. for a local
    subset. ``store`` is a JSONL result store: with ``resume=True`` samples already in it (same
    completion) are not judged again; without it an existing store is an error, never appended to.
    """
    from .execution import ResultStore, Sandbox
    from .report import build_report

    started = time.time()
    mod = benchmark_module(benchmark)
    bench_name = mod.__name__.rsplit(".", 1)[-1]
    if problems is None:
        problems = mod.problems(config, data_dir=data_dir)
    if judge is None:
        judge = mod.make_judge(**(judge_options or {}))
    samples = read_predictions(predictions)

    result_store = None
    done: dict[str, dict[str, Any]] = {}
    if store is not None:
        store_path = Path(store)
        if store_path.exists() and store_path.stat().st_size and not resume:
            raise FileExistsError(
                f"result store {store_path} already has results: pass resume=True (--resume) to "
                "continue it, or choose another store"
            )
        store_path.parent.mkdir(parents=True, exist_ok=True)
        result_store = ResultStore(store_path, key="key")
        done = {record["key"]: record for record in result_store.records()}

    verdicts: dict[str, Verdict] = {}
    planned: dict[str, tuple[Sample, list[Any]]] = {}
    for sample in samples:
        key = sample.key
        prior = done.get(key)
        if prior is not None:
            if prior.get("completion_hash") != completion_hash(sample.completion):
                raise ValueError(
                    f"result store {store}: {key} was judged for a different completion than "
                    f"{sample.source} gives now; use a new store for changed predictions")
            verdicts[key] = Verdict.from_dict(prior["verdict"])
            continue
        if sample.format_error:
            verdicts[key] = format_verdict(bench_name, sample, sample.format_error)
        elif sample.problem_id not in problems:
            verdicts[key] = format_verdict(
                bench_name, sample,
                f"{sample.source}: unknown problem id {sample.problem_id!r} for {bench_name}"
                + (f" config {config!r}" if config else ""))
        else:
            jobs = judge.jobs(problems[sample.problem_id], sample.completion)
            if isinstance(jobs, Verdict):
                verdicts[key] = jobs
            else:
                planned[key] = (sample, list(jobs))
                continue
        if result_store is not None:
            _save(result_store, key, sample, verdicts[key])

    bar = _progress(len(planned), progress)
    own_sandbox = sandbox is None and any(jobs for _, jobs in planned.values())
    if own_sandbox:
        sandbox = Sandbox(workers=workers)
    try:
        if planned:
            _run_planned(planned, judge, problems, sandbox, verdicts, result_store, bar)
    finally:
        if own_sandbox:
            sandbox.close()
        if result_store is not None:
            result_store.close()
        if bar is not None:
            bar.close()

    return build_report(
        benchmark=bench_name, config=config, samples=samples, verdicts=verdicts,
        problems=problems, module=mod, k=tuple(k), metrics=tuple(metrics),
        seconds=time.time() - started,
    )


def _save(store: Any, key: str, sample: Sample, verdict: Verdict) -> None:
    store.add({"key": key, "problem_id": sample.problem_id, "sample": sample.index,
               "completion_hash": completion_hash(sample.completion), "verdict": verdict.to_dict()})


def _run_planned(planned, judge, problems, sandbox, verdicts, store, bar) -> None:
    """Run every sample's jobs through one pool, stage by stage; decide a sample when the last
    job of its current stage is back (``decide`` returns the verdict or the next stage)."""
    from concurrent.futures import FIRST_COMPLETED, wait
    from dataclasses import replace

    from .judges.base import MAX_STAGES, judge_error

    results: dict[str, list[Any]] = {}
    waiting: dict[str, int] = {}
    stages: dict[str, int] = {}
    futures: dict[Any, tuple[str, int, str]] = {}  # future -> (sample key, result index, job id)

    def submit(key: str, jobs: list[Any]) -> None:
        start = len(results.setdefault(key, []))
        results[key].extend([None] * len(jobs))
        waiting[key] = len(jobs)
        stages[key] = stages.get(key, 0) + 1
        for j, job in enumerate(jobs):  # pool-wide unique ids; the judge gets its own back
            f = sandbox.submit(replace(job, id=f"{key}::{start + j}"))
            futures[f] = (key, start + j, job.id)

    def finish(key: str, verdict: Verdict) -> None:
        sample, _ = planned[key]
        verdicts[key] = verdict
        if store is not None:
            _save(store, key, sample, verdict)
        if bar is not None:
            bar.update(1)

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
    while futures:
        done, _ = wait(list(futures), return_when=FIRST_COMPLETED)
        for f in done:
            key, index, job_id = futures.pop(f)
            results[key][index] = replace(f.result(), id=job_id)
            waiting[key] -= 1
            if waiting[key] == 0:
                step(key)
