"""The reference solution of QPC004_C3 and the wrong solution of QPC004_C4."""

from qiskit import QuantumCircuit

from ...jobs.ref_lib import mod_mul_add


def solve(n, a, L):
    qc = QuantumCircuit(2 * n + 1)
    mod_mul_add(qc, list(range(n)), list(range(n, 2 * n)), 2 * n, a, L)
    return qc
