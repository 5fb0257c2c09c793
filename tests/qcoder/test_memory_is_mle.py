"""Running out of the sandbox's memory limit is MLE in QCoder wherever the MemoryError
surfaces (at load, inside ``solve``, NumPy's dense matrix, re-raised as another exception);
QCoder's service and the paper's failure tables keep MLE apart from RE."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.judges.qcoder import QCoderJudge

pytestmark = pytest.mark.upstream

H = "import numpy\nfrom qiskit import QuantumCircuit\n\n\n"
SOLVE = "def solve():\n    qc = QuantumCircuit(1)\n    qc.x(0)\n    return qc\n"
AT_LOAD = H + "U = numpy.zeros((2 ** 17, 2 ** 17), dtype=complex)\n\n\n" + SOLVE
IN_SOLVE = H + ("def solve():\n    keep = []\n    while True:\n"
                "        keep.append(bytearray(1 << 28))\n")
DENSE = H + "def solve():\n    m = numpy.eye(2 ** 17, dtype=complex)\n    return QuantumCircuit(1)\n"
RERAISED = H + ("def solve():\n    try:\n        numpy.ones(1 << 44)\n    except MemoryError as e:\n"
                "        raise RuntimeError('too big') from e\n")
PLAIN = H + "def solve():\n    raise RuntimeError('too big')\n"


def test_memory_exhaustion_is_mle(qsandbox, qcoder_records, judge_many):
    rec = qcoder_records["QPC001_A1"]
    codes = [AT_LOAD, IN_SOLVE, DENSE, RERAISED, PLAIN]
    verdicts = judge_many(qsandbox, QCoderJudge(memory_mb=3072), [(rec, c) for c in codes])
    assert [v.status for v in verdicts] == ["MLE", "MLE", "MLE", "MLE", "RE"], \
        [(v.status, v.message[:200]) for v in verdicts]
    assert not any(v.judge_error for v in verdicts)
