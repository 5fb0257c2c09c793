import pennylane as qml
from pennylane import numpy as np


def create_Hamiltonian(h):
    coeffs, obs = [], []
    for i in range(4):
        coeffs.append(-1.0)
        obs.append(qml.PauliZ(i) @ qml.PauliZ((i + 1) % 4))
    for i in range(4):
        coeffs.append(-h)
        obs.append(qml.PauliX(i))
    return qml.Hamiltonian(coeffs, obs)


dev = qml.device("default.qubit", wires=4)


@qml.qnode(dev)
def model(params, H):
    """Wrong on purpose: a product (unentangled) ansatz, which cannot reach the ground state."""
    for i in range(4):
        qml.RY(params[i], wires=i)
    return qml.expval(H)


def train(h):
    # the best product state: <X> = sin(theta) = min(1, h / 2)
    theta = np.arcsin(min(1.0, h / 2))
    return np.array([theta] * 4)
