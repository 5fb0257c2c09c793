"""The wrong solution of QPC001_C1. Its one mistake: H on every qubit whatever L: 0..L-1 is too
unlikely for small L."""

from qiskit import QuantumCircuit


def solve(n, L):
    qc = QuantumCircuit(n)
    qc.h(range(n))
    return qc
