"""The wrong solution of QPC004_B2. Its one mistake: P on qubit j instead of CP from j onto qubit
n: the phase ignores the last qubit."""

import math

from qiskit import QuantumCircuit


def solve(n, a):
    qc = QuantumCircuit(n + 1)
    for j in range(n):
        qc.p(2 * math.pi * a * 2 ** j / 2 ** n, j)
    return qc
