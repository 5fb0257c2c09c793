"""The wrong solution of QPC003_B6. Its one mistake: H on every qubit and no oracle query."""

from qiskit import QuantumCircuit


def solve(n, o):
    qc = QuantumCircuit(n)
    qc.h(range(n))
    return qc
