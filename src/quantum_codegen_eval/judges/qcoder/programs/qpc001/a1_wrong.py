"""The wrong solution of QPC001_A1. Its one mistake: X instead of H: |1>, not |+>."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(1)
    qc.x(0)
    return qc
