import pennylane as qml

dev = qml.device("default.qubit", wires=[0, 1, 2])


@qml.qnode(dev)
def or_circuit(state):
    """Wrong on purpose: computes AND instead of OR."""
    qml.BasisState(state, wires=[0, 1, 2])

    qml.Toffoli(wires=[0, 1, 2])

    return qml.state()
