"""The reference solution of QPC003_B6."""

from qiskit import QuantumCircuit

from ...jobs.ref_reflect import reflect0


def solve(n, o):
    qc = QuantumCircuit(n)
    qc.h(range(n))
    qc.compose(o, inplace=True)
    qc.h(range(n))
    reflect0(qc, list(range(n)))
    qc.h(range(n))
    return qc
