import pennylane as qml
from pennylane import numpy as np


def triple_excitation_matrix(gamma):
    # rotates |000111> (index 7) and |111000> (index 56) like qml.SingleExcitation
    c = np.cos(gamma)
    s = np.sin(gamma)
    matrix = np.identity(2 ** 6)
    matrix[7, 7] = c
    matrix[56, 56] = c
    matrix[7, 56] = s
    matrix[56, 7] = -s
    return matrix


@qml.qnode(dev)  # noqa: F821 (given by the template)
def circuit(angles):
    alpha, beta, gamma = angles[0], angles[1], angles[2]
    qml.BasisState(np.array([1, 1, 1, 0, 0, 0]), wires=range(6))
    qml.SingleExcitation(alpha, wires=[5, 0])
    qml.DoubleExcitation(beta, wires=[4, 5, 0, 1])
    qml.QubitUnitary(triple_excitation_matrix(gamma), wires=[5, 4, 3, 2, 1, 0])
    return qml.probs(wires=range(NUM_WIRES))  # noqa: F821 (given by the template)
