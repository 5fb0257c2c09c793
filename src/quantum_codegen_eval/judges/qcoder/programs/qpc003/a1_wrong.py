"""The wrong solution of QPC003_A1. Its one mistake: S-dagger instead of S: -i|1>, not i|1>."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(1)
    qc.x(0)
    qc.sdg(0)
    return qc
