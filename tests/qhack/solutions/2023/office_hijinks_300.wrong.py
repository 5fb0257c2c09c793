import pennylane as qml
from pennylane import numpy as np


def circuit_left():
    """Wrong on purpose: a phase-flip code (Hadamards after the encoding), which does not protect
    against the bit flip U applies: every X error becomes a logical Z on the decoded state."""
    qml.CNOT(wires=[0, 1])
    qml.CNOT(wires=[1, 2])
    for w in range(3):
        qml.Hadamard(wires=w)


def _controlled_sqrt_x(control, target):
    """Controlled RX(pi/2), a square root of X up to a syndrome-dependent phase."""
    qml.CRX(np.pi / 2, wires=[control, target])


def circuit_right():
    """Undo the Hadamards, extract the syndromes into wires 0 and 1 and correct wire 2 with a
    Toffoli built from nearest-neighbour gates."""
    for w in range(3):
        qml.Hadamard(wires=w)
    qml.CNOT(wires=[1, 0])
    qml.CNOT(wires=[2, 1])
    qml.CNOT(wires=[1, 0])
    _controlled_sqrt_x(1, 2)
    qml.CNOT(wires=[0, 1])
    qml.adjoint(_controlled_sqrt_x)(1, 2)
    qml.CNOT(wires=[0, 1])
    qml.SWAP(wires=[0, 1])
    _controlled_sqrt_x(1, 2)
    qml.SWAP(wires=[0, 1])
