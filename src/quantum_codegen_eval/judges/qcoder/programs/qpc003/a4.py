"""The reference solution of QPC003_A4, QPC003_A5 and QPC003_A6."""

from qiskit import QuantumCircuit

from ...jobs.ref_w import w_state


def solve(n):
    qc = QuantumCircuit(n)
    w_state(qc, list(range(n)))
    return qc
