"""The reference solution of QPC003_A2."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(2)
    qc.h(0)
    qc.x(1)
    qc.cx(0, 1)
    return qc
