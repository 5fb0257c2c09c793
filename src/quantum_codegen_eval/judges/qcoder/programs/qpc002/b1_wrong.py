"""The wrong solution of QPC002_B1. Its one mistake: P(theta) without the X's around it: the phase
lands on |1>, not |0>."""

from qiskit import QuantumCircuit


def solve(theta):
    qc = QuantumCircuit(1)
    qc.p(theta, 0)
    return qc
