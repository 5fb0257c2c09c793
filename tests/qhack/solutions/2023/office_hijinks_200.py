import pennylane as qml
from pennylane import numpy as np


@qml.qnode(dev)  # noqa: F821 (the template's device)
def model(alpha):
    """The cyclic shift S|k> = |k+1 mod 8> raised to the power alpha, applied to |000>.
    The QFT diagonalises S (S = QFT^dagger D QFT, D = diag(e^{2 pi i k / 8})), so
    S^alpha |000> = QFT^dagger D^alpha H^{x3} |000>, and D^alpha is one phase shift per wire
    (k = 4 b0 + 2 b1 + b2). Integer alpha = n gives the basis state |n>; the state is smooth in alpha."""
    for w in range(3):
        qml.Hadamard(wires=w)
    for w in range(3):
        qml.PhaseShift(np.pi * alpha / 2**w, wires=w)
    qml.adjoint(qml.QFT)(wires=range(3))
    return qml.probs(wires=range(3))


def generate_coefficients():
    """S^n |000> = |n>, so alpha = n gives the n-th basis state."""
    return [0, 1, 2, 3, 4, 5, 6, 7]
