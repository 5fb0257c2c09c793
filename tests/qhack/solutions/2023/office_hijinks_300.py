import pennylane as qml
from pennylane import numpy as np


def circuit_left():
    """Bit-flip code along the line 0-1-2 (no gate touches wires 0 and 2 together):
    a|0> + b|1> on wire 0 becomes a|000> + b|111>."""
    qml.CNOT(wires=[0, 1])
    qml.CNOT(wires=[1, 2])


def _controlled_sqrt_x(control, target):
    """Controlled RX(pi/2): a square root of X up to a phase that only depends on the
    (classical) syndrome, so it is global once the syndrome is fixed."""
    qml.CRX(np.pi / 2, wires=[control, target])


def circuit_right():
    """Syndromes into wires 0 and 1 (parities q0^q2 and q1^q2), then flip wire 2 when both are
    set (the error hit wire 2). The Toffoli(0, 1 -> 2) is built from two-qubit gates on the
    edges (0, 1) and (1, 2) only: Sleator-Weinfurter, with its (0, 2) part routed by SWAPs."""
    qml.CNOT(wires=[1, 0])  # q0 = q0 ^ q1
    qml.CNOT(wires=[2, 1])  # q1 = q1 ^ q2
    qml.CNOT(wires=[1, 0])  # q0 = q0 ^ q2
    _controlled_sqrt_x(1, 2)
    qml.CNOT(wires=[0, 1])
    qml.adjoint(_controlled_sqrt_x)(1, 2)
    qml.CNOT(wires=[0, 1])
    qml.SWAP(wires=[0, 1])
    _controlled_sqrt_x(1, 2)
    qml.SWAP(wires=[0, 1])
