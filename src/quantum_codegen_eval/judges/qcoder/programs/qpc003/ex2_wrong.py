"""The wrong solution of QPC003_Ex2. Its one mistake: the W state alone: no amplification."""

from qiskit import QuantumCircuit

from ...jobs.ref_w import w_state


def solve(n, o):
    qc = QuantumCircuit(n + 1)
    w_state(qc, list(range(n)))
    return qc
