"""The program with a forbidden gate (UGE) of QPC002_B3 and QPC004_A2: qc.swap, which is not among
the permitted gates."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(2)
    qc.swap(0, 1)
    return qc
