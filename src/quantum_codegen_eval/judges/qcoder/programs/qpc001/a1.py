"""The reference solution of QPC001_A1 and the wrong solution of QPC004_A1 and QPC005_A1."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(1)
    qc.h(0)
    return qc
