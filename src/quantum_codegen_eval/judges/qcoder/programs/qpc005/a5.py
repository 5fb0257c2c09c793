"""The reference solution of QPC005_A5."""

from qiskit import QuantumCircuit

from ...jobs.ref_lib import increment


def solve(n):
    qc = QuantumCircuit(n)
    qc.x(range(n))
    increment(qc, list(range(n)))
    return qc
