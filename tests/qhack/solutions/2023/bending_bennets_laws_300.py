import pennylane as qml
from pennylane import numpy as np


def is_unsafe(alpha, beta, epsilon):
    """Scan theta over a full period of the rotations (4 pi) for the best fidelity
    |<0| U^dagger(theta) (RX(beta) RZ(alpha))^{x2} U(theta) |0>|^2, which is the probability of
    |00> after U, the encoding and U^dagger; the pair is unsafe when it reaches 1 - epsilon."""
    dev = qml.device("default.qubit", wires=2)

    @qml.qnode(dev)
    def overlap(theta):
        U_psi(theta)  # noqa: F821 (given)
        for w in range(2):
            qml.RZ(alpha, wires=w)
            qml.RX(beta, wires=w)
        qml.adjoint(U_psi)(theta)  # noqa: F821 (given)
        return qml.probs(wires=[0, 1])

    thetas = np.linspace(0, 4 * np.pi, 2001, requires_grad=False)
    fidelity = np.max(overlap(thetas)[:, 0])  # one broadcast run over all the thetas
    return bool(fidelity >= 1 - epsilon)
