"""The judge of qiskit_basics: the task's ``test_*`` functions run in a trusted process, each
call of the candidate's function goes to the sandbox (``FunctionTestJudge``), so the verdict is
decided where no untrusted code ran. The subclass is the test and nothing else."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from quantum_codegen_eval.plugin import FunctionTestJudge


@dataclass
class QiskitBasicsJudge(FunctionTestJudge):
    """``time_limit``: CPU seconds per job; ``memory_mb``: per job."""

    time_limit: float = 30.0
    benchmark: str = "qiskit_basics"

    style: ClassVar[str] = "tests"  # every ``test_*`` of the task, the candidate's function bound

    def test_source(self, problem: Any) -> str:
        return problem.test
