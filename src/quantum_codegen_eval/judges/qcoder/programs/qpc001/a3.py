"""The reference solution of QPC001_A3 and the wrong solution of QPC002_A2 and QPC003_A2."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(2)
    qc.h(0)
    qc.cx(0, 1)
    return qc
