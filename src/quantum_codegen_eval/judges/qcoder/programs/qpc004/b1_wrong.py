"""The wrong solution of QPC004_B1. Its one mistake: H on qubit 0 only."""

from qiskit import QuantumCircuit


def solve(n):
    qc = QuantumCircuit(n)
    qc.h(0)
    return qc
