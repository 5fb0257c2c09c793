"""The wrong solution of QPC004_B3. Its one mistake: adds a whatever the last qubit (no control)."""

from qiskit import QuantumCircuit

from ...jobs.ref_lib import add_const


def solve(n, a):
    qc = QuantumCircuit(n + 1)
    add_const(qc, list(range(n)), [(a, [])])
    return qc
