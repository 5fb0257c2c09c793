"""One judge call for a harness: a benchmark's problem and a completion -> its verdict.

The judges, problem records and one sandbox are kept per process (a harness scores one sample
at a time, from several threads); the sandbox is closed when the process exits.
"""

from __future__ import annotations

import atexit
import threading
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..benchmarks.base import Benchmark, get
from ..judges.base import judge_one
from ..verdict import Verdict

_LOCK = threading.Lock()
_SANDBOX: list[Any] = []


@dataclass(frozen=True)
class Problems:
    """A judged benchmark config: its declaration, config and records by id."""

    bench: Benchmark
    config: str
    records: dict[str, Any]


@cache
def problems(benchmark: str, config: str | None = None, data_dir: str | None = None) -> Problems:
    """The judged config (the benchmark's default when ``None``) and its records."""
    bench = get(benchmark)
    cfg = bench.check_judged_config(config)
    return Problems(bench, cfg, dict(bench.loader.problems(cfg, data_dir=data_dir)))


@cache
def _judge(benchmark: str) -> Any:
    return get(benchmark).make_judge()


def _sandbox() -> Any:
    with _LOCK:
        if not _SANDBOX:
            from ..execution import Sandbox

            box = Sandbox()
            _SANDBOX.append(box)
            atexit.register(box.close)
        return _SANDBOX[0]


def judge(benchmark: str, config: str | None, data_dir: str | None, problem_id: str,
          completion: str) -> Verdict:
    """The verdict of ``completion`` on ``problem_id`` (classified, as ``judge_one`` gives it)."""
    found = problems(benchmark, config, data_dir)
    if problem_id not in found.records:
        raise KeyError(f"{found.bench.name} config {found.config!r}: no problem {problem_id!r}")
    return judge_one(_judge(found.bench.name), found.records[problem_id], completion, _sandbox())


def metadata(verdict: Verdict) -> dict[str, Any]:
    """What a harness records beside the score: status, error class and the judge's message."""
    return {"status": verdict.status, "error_class": verdict.error_class,
            "message": verdict.message, "tests_passed": verdict.tests_passed,
            "tests_total": verdict.tests_total}
