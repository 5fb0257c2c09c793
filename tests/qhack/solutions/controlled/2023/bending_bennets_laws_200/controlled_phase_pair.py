import numpy as np
import pennylane as qml


def encode(i, j, k):
    """Bit k flips wire 0 (both parities), j != k flips wire 1 only, i puts a sign on wire 0."""
    if k:
        qml.PauliX(wires=0)
    if j != k:
        qml.PauliX(wires=1)
    if i:
        qml.PauliZ(wires=0)


def decode():
    """Parities to wires 1 and 2, the sign read through a Hadamard on wire 0. The sign of the
    |1> branch of wire 0 is read as a doubly-controlled phase pair on wire 0 (controls 1 and 2)
    whose two halves undo each other before the Hadamard."""
    qml.CNOT(wires=[0, 2])
    qml.CNOT(wires=[0, 1])
    qml.ctrl(qml.PhaseShift(np.pi / 3, wires=0), control=[1, 2])
    qml.ctrl(qml.PhaseShift(-np.pi / 3, wires=0), control=[1, 2], control_values=[1, 1])
    qml.Hadamard(wires=0)
