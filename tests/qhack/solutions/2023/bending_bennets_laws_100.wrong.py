import pennylane as qml

dev = qml.device("default.qubit", wires=3)


@qml.qnode(dev)
def AND(j, k):
    """Wrong on purpose: no Hadamard after the CCZ, so the phase is never turned into a bit."""
    if j == 1:
        qml.PauliX(wires=1)
    if k == 1:
        qml.PauliX(wires=2)

    qml.Hadamard(wires=0)

    qml.ctrl(qml.PauliZ, control=[0, 1])(wires=[2])

    return qml.probs(wires=0)
