"""The wrong solution of QPC005_B1. Its one mistake: the phases with the opposite sign: shifts by
-k_const."""

import math

from qiskit import QuantumCircuit


def solve(n, k_const):
    qc = QuantumCircuit(n)
    for j in range(n):
        qc.p(-2 * math.pi * k_const * 2 ** j / 2 ** n, j)
    return qc
