"""The wrong solution of QPC001_B2. Its one mistake: only x_0 is added into y, not the parity of x."""

from qiskit import QuantumCircuit


def solve(n):
    qc = QuantumCircuit(n + 1)
    qc.cx(0, n)
    return qc
