"""The reference solution of QPC001_B1."""

from qiskit import QuantumCircuit, QuantumRegister


def solve():
    x, y = QuantumRegister(1), QuantumRegister(1)
    qc = QuantumCircuit(x, y)
    qc.cx(x[0], y[0])
    return qc
