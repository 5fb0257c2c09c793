"""The reference solution of QPC002_A4 and QPC002_A5."""

from qiskit import QuantumCircuit


def solve(n):
    qc = QuantumCircuit(n)
    qc.x(0)
    qc.h(0)
    k = 1
    while k < n:
        for i in range(k):
            if i + k < n:
                qc.cx(i, i + k)
        k *= 2
    return qc
