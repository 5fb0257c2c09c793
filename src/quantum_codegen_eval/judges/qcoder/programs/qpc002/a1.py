"""The reference solution of QPC002_A1."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(1)
    qc.x(0)
    qc.z(0)
    qc.x(0)
    return qc
