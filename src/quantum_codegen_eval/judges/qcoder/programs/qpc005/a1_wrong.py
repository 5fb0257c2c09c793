"""The wrong solution of QPC005_A1. Its one mistake: H alone: |+>, not |->."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(1)
    qc.h(0)
    return qc
