import pennylane as qml

dev = qml.device("default.qubit", wires=2)


@qml.qnode(dev)
def circuit(angles):
    """Wrong on purpose: the angles go to the wrong wires."""
    qml.RY(angles[1], wires=0)
    qml.RY(angles[0], wires=1)
    return qml.probs(wires=[0, 1])
