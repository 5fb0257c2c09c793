import pennylane as qml
from pennylane import numpy as np


def compare_circuits(angles):
    """Wrong on purpose: both circuits apply RX first, so the difference is always 0."""
    dev = qml.device("default.qubit", wires=1)

    @qml.qnode(dev)
    def circuit(a, b):
        qml.RX(a, wires=0)
        qml.RY(b, wires=0)
        return qml.expval(qml.PauliX(0))

    theta1, theta2 = angles[0], angles[1]
    return np.abs(circuit(theta1, theta2) - circuit(theta1, theta2))
