"""The reference solution of QPC004_A3 and QPC004_A4."""

from qiskit import QuantumCircuit


def _swap(qc, a, b):
    qc.cx(a, b)
    qc.cx(b, a)
    qc.cx(a, b)


def _reverse(qc, qs):
    for i in range(len(qs) // 2):
        _swap(qc, qs[i], qs[len(qs) - 1 - i])


def solve(n):
    qc = QuantumCircuit(n)
    _reverse(qc, list(range(n)))
    _reverse(qc, list(range(1, n)))
    return qc
