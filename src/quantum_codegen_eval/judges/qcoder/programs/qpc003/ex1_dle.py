"""The over-deep program (DLE) of QPC003_Ex1: The phase kickback with two more oracle applications
than permitted."""

from qiskit import QuantumCircuit


def solve(n, o):
    qc = QuantumCircuit(n + 1)
    qc.x(n)
    qc.h(n)
    qc.compose(o, inplace=True)
    qc.compose(o, inplace=True)
    qc.compose(o, inplace=True)
    qc.h(n)
    qc.x(n)
    return qc
