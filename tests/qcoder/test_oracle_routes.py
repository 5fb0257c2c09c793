"""Every route by which the oracle's action enters the circuit is a query (QPC003_Ex1 allows one).

The programs apply the phase oracle by phase kickback (written here), reaching the oracle through
its definition, ``decompose()``, ``to_gate()``, the instructions of ``o.data``, ``control`` and
``inverse``; used once each is AC, three times DLE (the service's status for a query limit).
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.upstream

HEAD = "from qiskit import QuantumCircuit\n\n\ndef solve(n, o):\n"
KICK_IN = "    qc = QuantumCircuit(n + 1)\n    qc.x(n)\n    qc.h(n)\n"
KICK_OUT = "    qc.h(n)\n    qc.x(n)\n    return qc\n"

# how the program gets something that acts like the oracle (``piece``), and how it applies it
ROUTES = {
    "definition": ("    piece = o.data[0].operation.definition\n", "qc.compose(piece, inplace=True)"),
    "decompose": ("    piece = o.decompose()\n", "qc.compose(piece, inplace=True)"),
    "definition-twice": ("    piece = o.data[0].operation.definition.data[0].operation.definition\n",
                         "qc.compose(piece, inplace=True)"),
    "to_gate": ("    piece = o.to_gate()\n", "qc.append(piece, range(n + 1))"),
    "data": ("    piece = [i.operation for i in o.data]\n",
             "[qc.append(op, range(n + 1)) for op in piece]"),
    "definition-to_gate": ("    piece = o.data[0].operation.definition.to_gate()\n",
                           "qc.append(piece, range(n + 1))"),
}


def _program(route: str, uses: int) -> str:
    get, apply = ROUTES[route]
    # an odd number of phase oracles is the oracle (f is 0/1): three uses are still correct
    return HEAD + get + KICK_IN + f"    for _ in range({uses}):\n        {apply}\n" + KICK_OUT


@pytest.fixture(scope="module")
def verdicts(qsandbox, qcoder_records, judge_many):
    from quantum_codegen_eval.judges.qcoder import QCoderJudge

    rec = qcoder_records["QPC003_Ex1"]
    items = [(route, uses) for route in ROUTES for uses in (1, 3)]
    got = judge_many(qsandbox, QCoderJudge(timeout=60),
                     [(rec, _program(route, uses)) for route, uses in items])
    return dict(zip(items, got, strict=True))


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_one_use_is_ac_three_uses_are_dle(verdicts, route):
    once, thrice = verdicts[(route, 1)], verdicts[(route, 3)]
    assert once.status == "AC", once.message
    assert thrice.status == "DLE", thrice.message
    assert thrice.details["queries"] == 3, thrice.details
