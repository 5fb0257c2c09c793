"""The reference solution of QPC004_B4."""

from qiskit import QuantumCircuit

from ...jobs.ref_lib import add_const


def solve(n, s, t):
    qc = QuantumCircuit(n + 1)
    add_const(qc, list(range(n)), [(-s, []), (s - (t - 2 ** n), [n])])
    return qc
