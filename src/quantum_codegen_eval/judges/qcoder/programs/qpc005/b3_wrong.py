"""The wrong solution of QPC005_B3. Its one mistake: QPC005_B2's left multiplication under B3's
parameter names: multiplies on the wrong side."""

from qiskit import QuantumCircuit
from qiskit.circuit.library.standard_gates import XGate, ZGate

from ...jobs.ref_group import _c0, _rot


def solve(n, m_right, k_right):
    qc = QuantumCircuit(n + 1)
    _rot(qc, n, k_right, 0)
    if m_right:
        qc.x(0)
        _c0(qc, n, XGate(), 0)
        _c0(qc, n, ZGate(), 0)
    if k_right % 2:
        _c0(qc, n, ZGate(), 1)
    return qc
