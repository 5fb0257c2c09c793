"""The wrong solution of QPC004_A1. Its one mistake: H instead of X."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(1)
    qc.h(0)
    return qc
