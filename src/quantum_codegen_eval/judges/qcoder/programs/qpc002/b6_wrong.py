"""The wrong solution of QPC002_B6. Its one mistake: the phases of S reversed (S[::-1])."""

from qiskit import QuantumCircuit

from ...jobs.ref_adder import _phases, _qinv


def solve(n, m, S):
    qc = QuantumCircuit(n + m)
    qc.h(range(n, n + m))
    _phases(qc, n, m, S[::-1])
    _qinv(qc, n, m)
    return qc
