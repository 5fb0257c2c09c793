"""The reference solution of QPC002_B1."""

from qiskit import QuantumCircuit


def solve(theta):
    qc = QuantumCircuit(1)
    qc.x(0)
    qc.p(theta, 0)
    qc.x(0)
    return qc
