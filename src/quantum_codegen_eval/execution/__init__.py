"""The execution layer: the only place where untrusted code runs.

It knows nothing about quantum code. A judge turns a completion into one or more :class:`Job`
objects (a program, its stdin, input files, which interpreter, what to preload), the
:class:`Sandbox` runs them in isolated processes and returns one :class:`RunResult` each,
whatever the program does. As root each job sees a private filesystem; this package's own files
are absent for it unless it is ``Job(trusted=True)`` (the judge's own code).

Public API (see docs/sandbox.md)::

    from quantum_codegen_eval.execution import Sandbox, Job, Limits, RunResult, ResultStore

    with Sandbox(wall_time=10, memory_mb=2048) as sb:
        r = sb.run("print(1 + 1)")
        assert r.status == "ok" and r.stdout == "2\\n"
        for r in sb.map([Job("print(i)", id=str(i)) for i in range(10)]):
            ...  # results in completion order; r.id names the job
"""

from .sandbox import DEFAULT_PRELOAD, Sandbox, classify, missing_interpreters
from .store import ResultStore, run_resumable
from .types import (
    STATUSES,
    ExceptionInfo,
    ExecutorError,
    InterpreterMissing,
    Job,
    Limits,
    PackageMissing,
    RunResult,
)

__all__ = ["DEFAULT_PRELOAD", "STATUSES", "ExceptionInfo", "ExecutorError", "InterpreterMissing",
           "Job", "Limits", "PackageMissing", "ResultStore", "RunResult", "Sandbox", "classify",
           "missing_interpreters", "run_resumable"]
