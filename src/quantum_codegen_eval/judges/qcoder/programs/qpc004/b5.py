"""The reference solution of QPC004_B5."""

from qiskit import QuantumCircuit

from ...jobs.ref_lib import mod_add


def solve(n, a, L):
    qc = QuantumCircuit(n + 1)
    mod_add(qc, list(range(n)), n, a, L)
    return qc
