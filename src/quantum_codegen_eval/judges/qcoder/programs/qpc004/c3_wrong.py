"""The wrong solution of QPC004_C3. Its one mistake: adds (L - a) x instead of a x (mod L)."""

from qiskit import QuantumCircuit

from ...jobs.ref_lib import mod_mul_add


def solve(n, a, L):
    qc = QuantumCircuit(2 * n + 1)
    mod_mul_add(qc, list(range(n)), list(range(n, 2 * n)), 2 * n, (L - a) % L, L)
    return qc
