"""The reference solution of QPC004_A5."""

from qiskit import QuantumCircuit


def solve(n):
    qc = QuantumCircuit(n)
    for i in reversed(range(1, n)):
        qc.mcx(list(range(i)), i, ctrl_state=0)
    qc.x(0)
    return qc
