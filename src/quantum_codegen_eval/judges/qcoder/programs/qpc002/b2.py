"""The reference solution of QPC002_B2."""

from qiskit import QuantumCircuit
from qiskit.circuit.library.standard_gates import PhaseGate

from ...jobs.ref_lib import _ctrl


def solve(n, L, theta):
    qc = QuantumCircuit(n)
    zeros = [q for q in range(n) if not (L >> q) & 1]
    for q in zeros:
        qc.x(q)
    _ctrl(qc, PhaseGate(theta), range(n - 1), [n - 1])
    for q in zeros:
        qc.x(q)
    return qc
