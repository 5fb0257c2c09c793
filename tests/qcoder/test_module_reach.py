"""QCoder's module rule is about what a program uses (issue 17).

* ``import qiskit.circuit.library.standard_gates`` (permitted) binds the top-level ``qiskit``;
  through it the transpiler, synthesis and the rest of the circuit library were reachable and
  such programs got AC. Every use of such a name must stay inside the permitted modules.
* A refusal the program triggered could be made to vanish: a read-only descriptor of the same
  file ``dup2``-ed over the UME channel passes the identity check but cannot be written, so the
  refusal was never recorded (and the program caught the error). A channel that cannot be
  written is tampering: UME.
"""

from __future__ import annotations

import pytest
from redteam import assert_verdict

pytestmark = pytest.mark.upstream

IMP = "import qiskit.circuit.library.standard_gates\nfrom qiskit import QuantumCircuit\n\n\n"
A1 = "def solve():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    return qc\n"

CHECKED = [
    ("library-through-qiskit", "QPC002_B4", IMP + (
        "def solve(n):\n    qc = QuantumCircuit(n)\n"
        "    qc.compose(qiskit.circuit.library.QFT(n), inplace=True)\n    return qc\n"),
     "UME", "qiskit.circuit.library.QFT"),
    ("transpiler-through-qiskit", "QPC001_A1", IMP + (
        "def solve():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n"
        "    return qiskit.transpile(qc, basis_gates=['u', 'cx'])\n"),
     "UME", "qiskit.transpile"),
    ("package-passed-around", "QPC001_A1", IMP + "_q = qiskit\n\n\n" + A1, "UME", "qiskit"),
    ("permitted-through-qiskit", "QPC001_A1", IMP + (
        "def solve():\n    qc = qiskit.QuantumCircuit(1)\n"
        "    qc.append(qiskit.circuit.library.standard_gates.HGate(), [0])\n    return qc\n"),
     "AC", ""),
]
RUNTIME = [
    # the refusal of ``import socket`` is never written: the channel is a read-only duplicate
    ("channel-made-read-only", "QPC001_A1", (
        "import numpy.lib._datasource as _d\nfrom qiskit import QuantumCircuit\n\n"
        "_os = _d.os\nfor _fd in range(3, 64):\n    try:\n        _st = _os.fstat(_fd)\n"
        "    except OSError:\n        continue\n"
        "    _ro = _os.open('ume.log', _os.O_RDONLY)\n"
        "    if _os.fstat(_ro).st_ino == _st.st_ino:\n        _os.dup2(_ro, _fd)\n"
        "try:\n    import socket\nexcept Exception:\n    pass\n\n\n" + A1),
     "UME", "tampered"),
]


@pytest.fixture(scope="module")
def verdicts(qsandbox, qcoder_records, verdict_table):
    return verdict_table(qsandbox, qcoder_records, CHECKED, RUNTIME)


@pytest.mark.parametrize("case", CHECKED + RUNTIME, ids=lambda c: c[0])
def test_verdict(verdicts, case):
    name, _pid, _code, status, text = case
    assert_verdict(verdicts[name], status, text, name=name)
