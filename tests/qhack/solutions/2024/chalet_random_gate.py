import pennylane as qml
import pennylane.numpy as np

dev = qml.device("default.mixed", wires=1)


@qml.qnode(dev)
def random_gate(p, q, r):
    """The Pauli channel I, X, Y, Z with probabilities 1 - p - q - r, p, q, r on |0>."""
    kraus = [
        np.sqrt(1 - p - q - r) * np.eye(2),
        np.sqrt(p) * np.array([[0, 1], [1, 0]]),
        np.sqrt(q) * np.array([[0, -1j], [1j, 0]]),
        np.sqrt(r) * np.array([[1, 0], [0, -1]]),
    ]
    qml.QubitChannel(kraus, wires=0)
    return qml.probs(wires=0)
