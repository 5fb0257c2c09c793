"""The wrong solution of QPC002_A3, QPC002_A4 and QPC002_A5. Its one mistake: the CX tree
without the X: GHZ with +, not -."""

from qiskit import QuantumCircuit


def solve(n):
    qc = QuantumCircuit(n)
    qc.h(0)
    k = 1
    while k < n:
        for i in range(k):
            if i + k < n:
                qc.cx(i, i + k)
        k *= 2
    return qc
