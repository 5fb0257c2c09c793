"""The wrong solution of QPC004_B5. Its one mistake: plain addition of a on n + 1 qubits: no
reduction mod L."""

from qiskit import QuantumCircuit

from ...jobs.ref_lib import add_const


def solve(n, a, L):
    qc = QuantumCircuit(n + 1)
    add_const(qc, list(range(n + 1)), [(a, [])])
    return qc
