"""The wrong solution of QPC002_B5. Its one mistake: the phase of S[k] on qubit n - 1 - k instead
of qubit k."""

import math

from qiskit import QuantumCircuit


def solve(n, m, S):
    qc = QuantumCircuit(n)
    for k in range(n):
        if S[k]:
            qc.p(2 * math.pi * S[k] / 2 ** m, n - 1 - k)
    return qc
