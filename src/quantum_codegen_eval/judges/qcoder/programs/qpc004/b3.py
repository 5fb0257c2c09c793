"""The reference solution of QPC004_B3."""

from qiskit import QuantumCircuit

from ...jobs.ref_lib import add_const


def solve(n, a):
    qc = QuantumCircuit(n + 1)
    add_const(qc, list(range(n)), [(a, [n])])
    return qc
