"""The reference solution of QPC002_B3 and QPC004_A2."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(2)
    qc.cx(0, 1)
    qc.cx(1, 0)
    qc.cx(0, 1)
    return qc
