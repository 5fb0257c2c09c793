"""The wrong solution of QPC002_B3. Its one mistake: two CX instead of three: not a swap."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(2)
    qc.cx(0, 1)
    qc.cx(1, 0)
    return qc
