"""The wrong solution of QPC004_B4. Its one mistake: only the subtraction of s: no correction
controlled by the last qubit."""

from qiskit import QuantumCircuit

from ...jobs.ref_lib import add_const


def solve(n, s, t):
    qc = QuantumCircuit(n + 1)
    add_const(qc, list(range(n)), [(-s, [])])
    return qc
