import pennylane as qml
from pennylane import numpy as np


def distance(A, B):
    dev = qml.device("default.qubit", wires=3)

    def embed(features, wire):
        # RY(2 t)|0> = cos t |0> + sin t |1>, the normalized feature vector
        qml.RY(2 * np.arctan2(features[1], features[0]), wires=wire)

    @qml.qnode(dev)
    def swap_test():
        embed(A, 1)
        embed(B, 2)
        qml.Hadamard(wires=0)
        qml.CSWAP(wires=[0, 1, 2])
        qml.Hadamard(wires=0)
        return qml.probs(wires=0)

    # P(0) = (1 + |<A|B>|^2) / 2
    overlap_squared = max(2 * swap_test()[0] - 1, 0.0)
    overlap = np.sqrt(overlap_squared)
    return np.sqrt(2 * (1 - overlap))
