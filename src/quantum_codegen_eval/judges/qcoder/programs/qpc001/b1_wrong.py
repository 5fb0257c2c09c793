"""The wrong solution of QPC001_B1. Its one mistake: the CX with control and target exchanged."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(2)
    qc.cx(1, 0)
    return qc
