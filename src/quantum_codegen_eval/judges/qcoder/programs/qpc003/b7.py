"""The reference solution of QPC003_B7."""

from qiskit import QuantumCircuit

from ...jobs.ref_reflect import reflect0


def solve(n, T):
    qc = QuantumCircuit(n)
    for i in range(n):
        qc.ry(-2 * T[i], i)
    reflect0(qc, list(range(n)))
    for i in range(n):
        qc.ry(2 * T[i], i)
    return qc
