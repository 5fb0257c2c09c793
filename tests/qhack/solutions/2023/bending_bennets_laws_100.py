import pennylane as qml

dev = qml.device("default.qubit", wires=3)


@qml.qnode(dev)
def AND(j, k):
    """Phase kickback: H on wire 0, CCZ, H on wire 0 leaves wire 0 in |j AND k>."""
    if j == 1:
        qml.PauliX(wires=1)
    if k == 1:
        qml.PauliX(wires=2)

    qml.Hadamard(wires=0)

    qml.ctrl(qml.PauliZ, control=[0, 1])(wires=[2])

    qml.Hadamard(wires=0)

    return qml.probs(wires=0)
