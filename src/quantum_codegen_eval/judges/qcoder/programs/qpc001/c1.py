"""The reference solution of QPC001_C1 and the wrong solution of QPC001_C2."""

import math

from qiskit import QuantumCircuit


def solve(n, L):
    qc = QuantumCircuit(n)
    k = math.ceil(math.log2(L)) if L > 1 else 0
    for q in range(k):
        qc.h(q)
    return qc
