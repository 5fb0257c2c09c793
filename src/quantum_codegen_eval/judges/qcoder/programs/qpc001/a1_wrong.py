"""The wrong solution of QPC001_A1 (its one mistake: X instead of H, so |1>, not |+>) and the
reference solution of QPC003_B1 and QPC004_A1."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(1)
    qc.x(0)
    return qc
