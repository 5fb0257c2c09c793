"""The reference solution of QPC002_B6."""

from qiskit import QuantumCircuit

from ...jobs.ref_adder import _phases, _qinv


def solve(n, m, S):
    qc = QuantumCircuit(n + m)
    qc.h(range(n, n + m))
    _phases(qc, n, m, S)
    _qinv(qc, n, m)
    return qc
