"""The wrong solution of QPC002_B7. Its one mistake: the phases with sign -1: subtracts f(x)
instead of adding it."""

from qiskit import QuantumCircuit

from ...jobs.ref_adder import _phases, _q, _qinv


def solve(n, m, S):
    qc = QuantumCircuit(n + m)
    _q(qc, n, m)
    _phases(qc, n, m, S, -1)
    _qinv(qc, n, m)
    return qc
