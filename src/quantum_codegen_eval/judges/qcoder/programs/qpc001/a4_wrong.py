"""The wrong solution of QPC001_A4. Its one mistake: H on qubit 0 only: the amplitude of |10> is
zero."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(2)
    qc.h(0)
    return qc
