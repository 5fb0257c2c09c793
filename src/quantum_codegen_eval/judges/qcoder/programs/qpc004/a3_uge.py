"""The program with a forbidden gate (UGE) of QPC004_A3: qc.swap on neighbours, which is not among
the permitted gates."""

from qiskit import QuantumCircuit


def solve(n):
    qc = QuantumCircuit(n)
    for i in reversed(range(n - 1)):
        qc.swap(i, i + 1)
    return qc
