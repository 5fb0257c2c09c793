"""The reference solution of QPC002_B5."""

import math

from qiskit import QuantumCircuit


def solve(n, m, S):
    qc = QuantumCircuit(n)
    for k in range(n):
        if S[k]:
            qc.p(2 * math.pi * S[k] / 2 ** m, k)
    return qc
