import pennylane as qml

dev = qml.device("default.qubit", wires=2)


@qml.qnode(dev)
def circuit(angles):
    """RY(angles[0]) on wire 0 and RY(angles[1]) on wire 1; probabilities of both wires."""
    qml.RY(angles[0], wires=0)
    qml.RY(angles[1], wires=1)
    return qml.probs(wires=[0, 1])
