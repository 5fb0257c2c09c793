"""The reference solution of QPC002_B7."""

from qiskit import QuantumCircuit

from ...jobs.ref_adder import _phases, _q, _qinv


def solve(n, m, S):
    qc = QuantumCircuit(n + m)
    _q(qc, n, m)
    _phases(qc, n, m, S)
    _qinv(qc, n, m)
    return qc
