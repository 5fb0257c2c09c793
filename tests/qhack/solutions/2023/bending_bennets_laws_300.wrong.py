import pennylane as qml
from pennylane import numpy as np


def is_unsafe(alpha, beta, epsilon):
    """Wrong on purpose: the overlap is read as the modulus of the |00> amplitude after U, the
    encoding and U^dagger, without squaring it, so some safe pairs look unsafe."""
    dev = qml.device("default.qubit", wires=2)

    @qml.qnode(dev)
    def overlap(theta):
        U_psi(theta)  # noqa: F821 (given)
        for w in range(2):
            qml.RZ(alpha, wires=w)
            qml.RX(beta, wires=w)
        qml.adjoint(U_psi)(theta)  # noqa: F821 (given)
        return qml.state()

    thetas = np.linspace(0, 4 * np.pi, 2001, requires_grad=False)
    fidelity = np.max(np.abs(overlap(thetas)[:, 0]))
    return bool(fidelity >= 1 - epsilon)
