"""The reference solution of QPC002_B4."""

from qiskit import QuantumCircuit

from ...jobs.ref_lib import qft


def solve(n):
    qc = QuantumCircuit(n)
    qft(qc, list(range(n)))
    return qc
