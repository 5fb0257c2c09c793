"""The reference solution of QPC005_A4."""

from qiskit import QuantumCircuit


def _reverse(qc, qs):
    for i in range(len(qs) // 2):
        qc.swap(qs[i], qs[len(qs) - 1 - i])


def solve(n):
    qc = QuantumCircuit(n + 1)
    _reverse(qc, list(range(n + 1)))
    _reverse(qc, list(range(1, n + 1)))
    return qc
