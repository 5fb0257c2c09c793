"""What every judge looks like.

A judge decides one completion of one problem. It is split in two so that ``evaluate`` can run the
programs of many samples through one sandbox pool in parallel:

* ``jobs(problem, completion)`` turns the completion into programs to run (``list[Job]``), or
  returns a :class:`~quantum_codegen_eval.verdict.Verdict` straight away when the completion can
  be decided without running it (no code block: ``FORMAT``; a forbidden import: ``UME``; ...).
* ``decide(problem, completion, results)`` turns the run results (same order as the jobs) into
  the verdict. It runs in the trusted parent process: it must not trust anything the program
  printed without checking it (a program can print anything).

``judge_one`` does both with a sandbox, for single use (``qce judge``).
"""

from __future__ import annotations

from typing import Any, Protocol

from ..verdict import Verdict


class Judge(Protocol):
    benchmark: str

    def jobs(self, problem: Any, completion: str) -> list[Any] | Verdict: ...

    def decide(self, problem: Any, completion: str, results: list[Any]) -> Verdict: ...


def judge_one(judge: Judge, problem: Any, completion: str, sandbox: Any = None) -> Verdict:
    """Judge one completion, running its jobs in ``sandbox`` (a default one when ``None``)."""
    planned = judge.jobs(problem, completion)
    if isinstance(planned, Verdict):
        return planned
    if sandbox is None:
        from ..execution import Sandbox

        with Sandbox() as sb:
            results = list(sb.run_jobs(planned))
    else:
        results = list(sandbox.run_jobs(planned))
    return judge.decide(problem, completion, results)
