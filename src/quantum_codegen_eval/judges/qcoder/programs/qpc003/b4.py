"""The reference solution of QPC003_B4 and the wrong solution of QPC003_B5."""

from qiskit import QuantumCircuit

from ...jobs.ref_reflect import reflect0


def solve(n):
    qc = QuantumCircuit(n)
    reflect0(qc, list(range(n)))
    return qc
