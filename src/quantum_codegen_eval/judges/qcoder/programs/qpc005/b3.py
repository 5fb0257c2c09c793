"""The reference solution of QPC005_B3."""

from qiskit import QuantumCircuit
from qiskit.circuit.library.standard_gates import XGate, ZGate

from ...jobs.ref_group import _c0, _rot


def solve(n, m_right, k_right):
    qc = QuantumCircuit(n + 1)
    if m_right:
        qc.x(1)
        _c0(qc, n, XGate(), 1)
        _c0(qc, n, ZGate(), 0)
    _rot(qc, n, k_right, 1)
    if k_right % 2:
        _c0(qc, n, ZGate(), 1)
    return qc
