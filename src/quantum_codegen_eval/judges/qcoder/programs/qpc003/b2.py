"""The reference solution of QPC003_B2 and QPC003_Ex1."""

from qiskit import QuantumCircuit


def solve(n, o):
    qc = QuantumCircuit(n + 1)
    qc.x(n)
    qc.h(n)
    qc.compose(o, inplace=True)
    qc.h(n)
    qc.x(n)
    return qc
