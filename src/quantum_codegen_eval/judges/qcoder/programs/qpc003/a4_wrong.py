"""The wrong solution of QPC003_A4, QPC003_A5 and QPC003_A6. Its one mistake: the W state with
every split rotated by pi/4 instead of acos(sqrt(len(left) / k)) (``_w_quarter``):
unequal amplitudes."""

from qiskit import QuantumCircuit

from ._w_quarter import w_state


def solve(n):
    qc = QuantumCircuit(n)
    w_state(qc, list(range(n)))
    return qc
