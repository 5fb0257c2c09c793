"""The reference solution of QPC005_A3."""

from qiskit import QuantumCircuit


def solve(n):
    qc = QuantumCircuit(n + 1)
    qc.x(0)
    qc.mcx(list(range(1, n + 1)), 0, ctrl_state=0)
    return qc
