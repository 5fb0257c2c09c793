import pennylane as qml
import pennylane.numpy as np

dev = qml.device("default.mixed", wires=1)


@qml.qnode(dev)
def random_gate(p, q, r):
    """Wrong on purpose: the Y branch is folded into the identity."""
    kraus = [
        np.sqrt(1 - p - r) * np.eye(2),
        np.sqrt(p) * np.array([[0, 1], [1, 0]]),
        np.sqrt(r) * np.array([[1, 0], [0, -1]]),
    ]
    qml.QubitChannel(kraus, wires=0)
    return qml.probs(wires=0)
