"""The reference solution of QPC005_A1."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(1)
    qc.x(0)
    qc.h(0)
    return qc
