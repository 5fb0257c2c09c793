"""The wrong solution of QPC002_Ex. Its one mistake: U alone: no amplification."""

from qiskit import QuantumCircuit


def solve(n, P, U, R):
    qc = QuantumCircuit(n)
    qc.compose(U(), inplace=True)
    return qc
