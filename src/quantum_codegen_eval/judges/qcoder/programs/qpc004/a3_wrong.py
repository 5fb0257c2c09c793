"""The wrong solution of QPC004_A3 and QPC004_A4. Its one mistake: the two reversals in the
opposite order: rotates right, not left."""

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
    _reverse(qc, list(range(1, n)))
    _reverse(qc, list(range(n)))
    return qc
