"""The wrong solution of QPC003_B2 and QPC003_Ex1. Its one mistake: no X on the ancilla: it is |+>,
so the oracle's kickback is lost."""

from qiskit import QuantumCircuit


def solve(n, o):
    qc = QuantumCircuit(n + 1)
    qc.h(n)
    qc.compose(o, inplace=True)
    qc.h(n)
    return qc
