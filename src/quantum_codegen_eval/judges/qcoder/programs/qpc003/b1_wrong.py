"""The wrong solution of QPC003_B1. Its one mistake: RX(pi) = -iX: a global phase, and here it
counts."""

import math

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(1)
    qc.rx(math.pi, 0)
    return qc
