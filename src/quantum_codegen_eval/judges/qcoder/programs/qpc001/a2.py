"""The reference solution of QPC001_A2 and QPC004_B1."""

from qiskit import QuantumCircuit


def solve(n):
    qc = QuantumCircuit(n)
    qc.h(range(n))
    return qc
