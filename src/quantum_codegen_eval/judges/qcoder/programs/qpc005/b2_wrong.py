"""The wrong solution of QPC005_B2. Its one mistake: for m_left = 1 only the X on qubit 0: the
controlled X and Z corrections are missing."""

from qiskit import QuantumCircuit
from qiskit.circuit.library.standard_gates import ZGate

from ...jobs.ref_group import _c0, _rot


def solve(n, m_left, k_left):
    qc = QuantumCircuit(n + 1)
    _rot(qc, n, k_left, 0)
    if m_left:
        qc.x(0)
    if k_left % 2:
        _c0(qc, n, ZGate(), 1)
    return qc
