"""The reference solution of QPC001_B2."""

from qiskit import QuantumCircuit, QuantumRegister


def solve(n):
    x, y = QuantumRegister(n), QuantumRegister(1)
    qc = QuantumCircuit(x, y)
    for q in x:
        qc.cx(q, y[0])
    return qc
