"""The wrong solution of QPC004_A2. Its one mistake: two CX instead of three: not a swap."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(2)
    qc.cx(1, 0)
    qc.cx(0, 1)
    return qc
