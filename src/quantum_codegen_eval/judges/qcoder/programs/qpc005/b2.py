"""The reference solution of QPC005_B2."""

from qiskit import QuantumCircuit
from qiskit.circuit.library.standard_gates import XGate, ZGate

from ...jobs.ref_group import _c0, _rot


def solve(n, m_left, k_left):
    qc = QuantumCircuit(n + 1)
    _rot(qc, n, k_left, 0)
    if m_left:
        qc.x(0)
        _c0(qc, n, XGate(), 0)
        _c0(qc, n, ZGate(), 0)
    if k_left % 2:
        _c0(qc, n, ZGate(), 1)
    return qc
