"""The scaffolding of the red-team tests of every judge: judge a table of named programs in one
batch, and assert the exact verdict each one earns.

A red-team case is a program written to fool a judge (or a correct program in an unusual
style) with the verdict it must get: a status, a judge's own decision (never a judge error),
and a fragment of the message that shows *why*.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def judge_cases(judge: Any, sandbox: Any, cases: Iterable[tuple[str, Any, str]]) -> dict[str, Any]:
    """Verdict by case name for ``(name, problem, completion)`` cases: every case through one
    ``judge_many`` (one sandbox pool, the jobs of all cases in parallel). Names are unique."""
    from quantum_codegen_eval.judges.base import judge_many

    cases = list(cases)
    names = [name for name, _, _ in cases]
    assert len(set(names)) == len(names), f"two cases share a name: {names}"
    verdicts = judge_many(judge, [(problem, code) for _, problem, code in cases], sandbox)
    return dict(zip(names, verdicts, strict=True))


def assert_verdict(verdict: Any, status: str, fragment: str = "", *, name: str = "") -> None:
    """``verdict`` is ``status`` decided by the judge (not a judge error) and its message holds
    ``fragment``."""
    label = f"{name}: " if name else ""
    assert verdict.status == status, f"{label}{verdict.status} {verdict.message}"
    assert not verdict.details.get("judge_error"), f"{label}judge error: {verdict.message}"
    assert fragment in (verdict.message or ""), f"{label}{verdict.message}"


def humaneval_task(name: str, prompt: str, test: str, entry: str, **fields: Any) -> Any:
    """A Qiskit HumanEval task of our own (id ``own/<name>``, difficulty basic, config normal)
    for programs written for these tests."""
    from quantum_codegen_eval.benchmarks import qiskit_humaneval as qhe

    return qhe.Task(f"own/{name}", prompt, "", test, entry, "basic", "normal", **fields)
