"""The reference solution of QPC004_B2."""

import math

from qiskit import QuantumCircuit


def solve(n, a):
    qc = QuantumCircuit(n + 1)
    for j in range(n):
        qc.cp(2 * math.pi * a * 2 ** j / 2 ** n, j, n)
    return qc
