"""The reference solution of QPC001_A4 and QPC001_A5."""

import math

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(2)
    qc.ry(2 * math.asin(math.sqrt(1 / 3)), 1)
    qc.ch(1, 0, ctrl_state=0)
    return qc
