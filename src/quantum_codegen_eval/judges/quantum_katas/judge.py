"""The Quantum Katas judge: a function-test judge (``judges/function_test``: stages, status
mapping) of style ``"tests"``.

Upstream's runner ``exec``s the solution, then the test in a copy of the solution's namespace,
and calls ``test_<entry_point>`` (else the first ``test_*``). Here the trusted job runs the
task's canonical solution and then the test (the namespace the test was written against: the
solution's imports and classes), binds over the canonical functions the candidate's functions
the test calls (the entry point and the functions the prompt asks for: :func:`helper_names`),
and calls the same test function. The candidate's program is the completion's code alone, as
upstream runs it. Instances of the classes the prompt defines (``TruthTable``, the ``Pauli``
enum) cross as data (:func:`task_classes`). Deviations: docs/benchmarks/quantum_katas.md.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from typing import Any, ClassVar

from ..function_test import FunctionTestJudge, test_functions

BENCHMARK = "quantum_katas"
#: CPU seconds per job (upstream: 30 s wall per task)
DEFAULT_TIME_LIMIT = 30.0


@functools.lru_cache(maxsize=4096)
def _top_level(source: str, kinds: tuple[type, ...]) -> tuple[str, ...]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ()
    return tuple(n.name for n in tree.body if isinstance(n, kinds))


@functools.lru_cache(maxsize=1024)
def _names(source: str) -> frozenset[str]:
    """The names ``source`` reads or writes (a task's text: parsed once per process)."""
    try:
        return frozenset(n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name))
    except SyntaxError:
        return frozenset()


def helper_names(task: Any) -> tuple[str, ...]:
    """The candidate's functions the test calls: the entry point, then every other top-level
    function the prompt asks for that the test's code names."""
    used = _names(task.test)
    asked = _top_level(task.prompt, (ast.FunctionDef, ast.AsyncFunctionDef))
    return (task.entry_point, *[n for n in asked if n in used and n != task.entry_point])


def task_classes(task: Any) -> tuple[str, ...]:
    """The classes the prompt defines (their instances cross between test and program)."""
    return tuple(_top_level(task.prompt, (ast.ClassDef,)))


def stub_returns(task: Any) -> list | None:
    """``[value]`` when the prompt's entry point only returns ``value`` (``pass``, a docstring
    and comments: ``None``; ``return True``: ``True``), else ``None``."""
    try:
        tree = ast.parse(task.prompt)
    except SyntaxError:
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == task.entry_point:
            body = [n for n in node.body if not isinstance(n, ast.Pass) and not (
                isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
            if not body:
                return [None]
            if len(body) == 1 and isinstance(body[0], ast.Return):
                value = body[0].value
                if value is None:
                    return [None]
                if isinstance(value, ast.Constant):
                    return [value.value]
            return None
    return None


def upstream_tests(task: Any) -> tuple[str, ...]:
    """The test function upstream's runner calls: ``test_<entry_point>``, else the first
    ``test_*`` (none: the task's test cannot run)."""
    names = test_functions(task.test)
    wanted = f"test_{task.entry_point}"
    return (wanted,) if wanted in names else names[:1]


@dataclass
class QuantumKatasJudge(FunctionTestJudge):
    """Judge for Quantum Katas. ``time_limit``: CPU seconds per job (the wall clock: 3x)."""

    time_limit: float = DEFAULT_TIME_LIMIT
    benchmark: str = BENCHMARK

    style: ClassVar[str] = "tests"
    callbacks: ClassVar[bool] = True
    rng_continues: ClassVar[bool] = True

    def test_source(self, problem: Any) -> str:
        return problem.canonical_solution.rstrip() + "\n\n\n" + problem.test.rstrip() + "\n"

    def functions(self, problem: Any) -> tuple[str, ...]:
        return helper_names(problem)

    def classes(self, problem: Any) -> tuple[str, ...]:
        return task_classes(problem)

    def tests(self, problem: Any) -> tuple[str, ...]:
        return upstream_tests(problem)

    def stub_returns(self, problem: Any) -> list | None:
        return stub_returns(problem)

    def task_details(self, problem: Any) -> dict[str, Any]:
        return {"category": getattr(problem, "category", "")}
