"""The wrong solution of QPC002_A1. Its one mistake: Z alone: |0> keeps its phase (the global phase
counts here)."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(1)
    qc.z(0)
    return qc
