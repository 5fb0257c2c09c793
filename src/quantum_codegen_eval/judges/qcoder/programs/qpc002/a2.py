"""The reference solution of QPC002_A2."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(2)
    qc.x(0)
    qc.h(0)
    qc.cx(0, 1)
    return qc
