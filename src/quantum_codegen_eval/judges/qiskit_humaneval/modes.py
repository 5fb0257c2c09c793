"""How each upstream task is checked here (filled from running every canonical solution through
this judge; see docs/benchmarks/qiskit_humaneval.md).

``proxy``: ``check()`` runs in a trusted process against a proxy of the candidate, and the
canonical solution passes that way. The tasks listed in :data:`UNSUPPORTED` cannot pass through
the proxy: the canonical solution returns an object that cannot cross safely to the check.

>>> from types import SimpleNamespace
>>> check_mode(SimpleNamespace(task_id="qiskitHumanEval/0"))
'proxy'
"""

from __future__ import annotations

from typing import Any

#: task number -> why it cannot run through the proxy (same in both configs)
UNSUPPORTED: dict[int, str] = {
    28: "check() inspects the returned matplotlib figure's artists (tick labels, bars); a "
        "figure crosses as a PNG image",
    30: "check() counts the returned matplotlib figure's axes; a figure crosses as a PNG image",
    76: "the function returns a transpiler pass class defined by the program (behaviour, not "
        "data); check() runs it",
}


def task_number(task_id: str) -> int | None:
    head, _, tail = str(task_id).rpartition("/")
    return int(tail) if head == "qiskitHumanEval" and tail.isdigit() else None


def check_mode(problem: Any) -> str:
    """``proxy`` or ``proxy_unsupported`` for one task."""
    return "proxy_unsupported" if task_number(problem.task_id) in UNSUPPORTED else "proxy"
