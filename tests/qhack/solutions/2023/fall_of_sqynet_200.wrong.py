import pennylane as qml
from pennylane import numpy as np


def W(alpha, beta):
    """W(alpha, beta) = [[sqrt(a), -sqrt(b)], [sqrt(b), sqrt(a)]] / sqrt(a + b)."""
    return np.array(
        [[np.sqrt(alpha), -np.sqrt(beta)], [np.sqrt(beta), np.sqrt(alpha)]]
    ) / np.sqrt(alpha + beta)


dev = qml.device("default.qubit", wires=2)


@qml.qnode(dev)
def linear_combination(U, V, alpha, beta):
    """Wrong on purpose: applies W again instead of W^dagger at the end.

    LCU: W on the auxiliary wire 0, U if it is |0>, V if it is |1>, then W^dagger."""
    w = W(alpha, beta)
    qml.QubitUnitary(w, wires=0)
    qml.ControlledQubitUnitary(np.array(U), control_wires=0, wires=1, control_values="0")
    qml.ControlledQubitUnitary(np.array(V), control_wires=0, wires=1)
    qml.QubitUnitary(w, wires=0)
    return qml.probs(wires=0)
