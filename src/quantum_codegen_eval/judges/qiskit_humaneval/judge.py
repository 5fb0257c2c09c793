"""The Qiskit HumanEval judge: a function-test judge (``judges/function_test``, its session and
status mapping) whose test is the task's ``check(candidate)``: the prompt (normal tasks: its
imports, which upstream tests rely on) and the test, in a trusted process; the candidate's
program is ``prompt + completion`` (normal) or the completion (hard)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import WALL_FACTOR  # noqa: F401 - read by its tests and docs
from ..function_test import FunctionTestJudge
from ..function_test._judge import (  # noqa: F401 - the judge's bounds, read by its tests
    DEFAULT_TIME_LIMIT,
    ENVIRONMENT_ERRORS,
    LIBRARIES,
    MAX_CODE_CHARS,
    PRELOAD,
    _library_says_lacking,
)
from .modes import UNSUPPORTED, check_mode, task_number
from .program import candidate_program, check_source

BENCHMARK = "qiskit_humaneval"


@dataclass
class QiskitHumanEvalJudge(FunctionTestJudge):
    """Judge for Qiskit HumanEval (normal and hard). ``time_limit``: CPU seconds per job;
    ``preload``: what the sandbox worker imports once before forking a problem's jobs, or a
    function of the problem giving it (the bundled sample adds PennyLane for its PennyLane
    tasks: imported in every job instead, it cost 30-120 s a job under load)."""

    benchmark: str = BENCHMARK

    def test_source(self, problem: Any) -> str:
        return check_source(problem)

    def program(self, problem: Any, code: str) -> str:
        return candidate_program(problem, code)

    def unjudgeable(self, problem: Any) -> str:
        if check_mode(problem) != "proxy":
            return (f"this task cannot be checked through the proxy "
                    f"({UNSUPPORTED.get(task_number(problem.task_id))})")
        if getattr(problem, "unrunnable", ""):
            return f"this task cannot pass in this environment ({problem.unrunnable})"
        return ""

    def task_details(self, problem: Any) -> dict[str, Any]:
        out = {"config": problem.config, "check_mode": check_mode(problem)}
        if getattr(problem, "unrunnable", ""):
            out["unrunnable"] = str(problem.unrunnable)
        return out
