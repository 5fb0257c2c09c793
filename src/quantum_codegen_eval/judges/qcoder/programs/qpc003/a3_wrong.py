"""The wrong solution of QPC003_A3. Its one mistake: the W state with every split rotated by pi/4
instead of acos(sqrt(len(left) / k)) (``_w_quarter``): unequal amplitudes."""

from qiskit import QuantumCircuit

from ._w_quarter import w_state


def solve():
    qc = QuantumCircuit(3)
    w_state(qc, [0, 1, 2])
    return qc
