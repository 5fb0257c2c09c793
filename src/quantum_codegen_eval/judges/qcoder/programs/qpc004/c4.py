"""The reference solution of QPC004_C4."""

from qiskit import QuantumCircuit

from ...jobs.ref_lib import mod_mul


def solve(n, a, L):
    qc = QuantumCircuit(2 * n + 1)
    mod_mul(qc, list(range(n)), list(range(n, 2 * n)), 2 * n, a, L)
    return qc
