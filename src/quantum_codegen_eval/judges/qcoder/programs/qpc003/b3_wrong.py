"""The wrong solution of QPC003_B3. Its one mistake: RY(T[i]) instead of RY(2 T[i])."""

from qiskit import QuantumCircuit


def solve(n, T):
    qc = QuantumCircuit(n)
    for i in range(n):
        qc.ry(T[i], i)
    return qc
