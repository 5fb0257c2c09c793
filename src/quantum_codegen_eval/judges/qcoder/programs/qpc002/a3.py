"""The reference solution of QPC002_A3 and the over-deep program (DLE) of QPC002_A5 (a chain of n -
1 CX, deeper than A5's limit)."""

from qiskit import QuantumCircuit


def solve(n):
    qc = QuantumCircuit(n)
    qc.x(0)
    qc.h(0)
    for i in range(n - 1):
        qc.cx(i, i + 1)
    return qc
