"""The wrong solution of QPC001_A2. Its one mistake: H on every qubit but the last."""

from qiskit import QuantumCircuit


def solve(n):
    qc = QuantumCircuit(n)
    for q in range(n - 1):
        qc.h(q)
    return qc
