"""The reference solution of QPC003_A3."""

from qiskit import QuantumCircuit

from ...jobs.ref_w import w_state


def solve():
    qc = QuantumCircuit(3)
    w_state(qc, [0, 1, 2])
    return qc
