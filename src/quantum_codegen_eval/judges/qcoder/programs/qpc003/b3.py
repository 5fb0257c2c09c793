"""The reference solution of QPC003_B3."""

from qiskit import QuantumCircuit


def solve(n, T):
    qc = QuantumCircuit(n)
    for i in range(n):
        qc.ry(2 * T[i], i)
    return qc
