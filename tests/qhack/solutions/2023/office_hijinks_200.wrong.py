import pennylane as qml
from pennylane import numpy as np


@qml.qnode(dev)  # noqa: F821 (the template's device)
def model(alpha):
    """Wrong on purpose: the phase shifts are put on the wires in the reversed order (wire 0 gets
    the least significant bit's phase), so alpha = n gives the bit-reversed state, not |n>."""
    for w in range(3):
        qml.Hadamard(wires=w)
    for w in range(3):
        qml.PhaseShift(np.pi * alpha / 2 ** (2 - w), wires=w)
    qml.adjoint(qml.QFT)(wires=range(3))
    return qml.probs(wires=range(3))


def generate_coefficients():
    """alpha = n is meant to give the n-th basis state."""
    return [0, 1, 2, 3, 4, 5, 6, 7]
