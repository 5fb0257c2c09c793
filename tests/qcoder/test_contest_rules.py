"""Programs the contest accepted and the judge refused (issue 17): what the contest material
says, and the verdict that follows (programs written here, of the same kind).

* ``reset`` on a state-preparation problem (an author-accepted QPC001_A5 solution used it): no
  statement, ``rules.txt`` or published rule forbids it; from the zero state it is well defined.
  Allowed there (AC when the prepared state is right), refused where the input is not the zero
  state (unitary problems: UGE) and WA when it acts on an entangled qubit (a random state).
* ``from qiskit.circuit.library import QFT`` (an author-accepted QPC002_B4 solution): the
  benchmark's ``codes/rules.txt``, which every prompt carries, permits only
  ``qiskit.circuit.library.standard_gates`` from the library: UME.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.upstream

H = "from qiskit import QuantumCircuit\nimport math\n\n\n"
# (|00> + |10> + |01>) / sqrt(3), little-endian kets, with resets on the way
A5_RESET = H + (
    "def solve():\n    qc = QuantumCircuit(2)\n    qc.reset([0, 1])\n    qc.x(0)\n"
    "    qc.h(0)\n    qc.reset(0)\n"          # a product state: reset gives |0> back
    "    qc.ry(2 * math.acos(math.sqrt(2 / 3)), 1)\n    qc.x(1)\n    qc.ch(1, 0)\n    qc.x(1)\n"
    "    return qc\n")
# the same with a reset on a qubit entangled with the other: not one pure state
A5_ENTANGLED = A5_RESET.replace("    return qc\n", "    qc.reset(1)\n    return qc\n")


@pytest.fixture(scope="module")
def verdicts(qsandbox, qcoder_records, judge_many):
    from quantum_codegen_eval.judges.qcoder import QCoderJudge

    qft = ("from qiskit import QuantumCircuit\nfrom qiskit.circuit.library import QFT\n\n\n"
           "def solve(n):\n    qc = QuantumCircuit(n)\n    qc.compose(QFT(n), inplace=True)\n"
           "    return qc\n")
    b2_reset = ("from qiskit import QuantumCircuit\n\n\ndef solve(n):\n    qc = QuantumCircuit(n + 1)\n"
                "    qc.reset(n)\n    for q in range(n):\n        qc.cx(q, n)\n    return qc\n")
    items = {"a5-reset": ("QPC001_A5", A5_RESET), "a5-entangled": ("QPC001_A5", A5_ENTANGLED),
             "b2-reset": ("QPC001_B2", b2_reset), "b4-qft": ("QPC002_B4", qft)}
    got = judge_many(qsandbox, QCoderJudge(),
                     [(qcoder_records[p], code) for p, code in items.values()])
    return dict(zip(items, got, strict=True))


def test_reset_in_state_preparation_is_judged_on_the_state(verdicts):
    assert verdicts["a5-reset"].status == "AC", verdicts["a5-reset"].message
    bad = verdicts["a5-entangled"]
    assert bad.status == "WA" and "entangled" in bad.message, bad.message


def test_reset_where_the_input_is_not_the_zero_state_is_uge(verdicts):
    v = verdicts["b2-reset"]
    assert v.status == "UGE" and "reset" in v.message, v.message


def test_qft_from_the_library_is_ume_as_rules_txt_says(verdicts, qcoder_records):
    rules = qcoder_records["QPC002_B4"].rules
    assert "qiskit.circuit.library.standard_gates" in rules and "QFT" not in rules
    v = verdicts["b4-qft"]
    assert v.status == "UME" and "QFT" in v.message, v.message
