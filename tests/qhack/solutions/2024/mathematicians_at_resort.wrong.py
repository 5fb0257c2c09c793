import pennylane as qml


@qml.qnode(dev)  # noqa: F821 - `dev` is the template's
def circuit():
    """Fans out only to wires 0 and 1: (|00000> + |11100>)/sqrt(2)."""
    qml.Hadamard(wires=2)
    for _ in range(2):
        qml.QFT(wires=[0, 1, 2])
    return qml.probs(wires=range(5))
