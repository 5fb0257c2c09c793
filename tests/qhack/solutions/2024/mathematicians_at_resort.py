import pennylane as qml


@qml.qnode(dev)  # noqa: F821 - `dev` is the template's
def circuit():
    """(|00000> + |11111>)/sqrt(2) from Hadamard and QFT alone.

    QFT applied twice maps |x> to |-x mod 8>, so on three wires with the last one as the least
    significant bit it sends |001> to |111> and leaves |000> alone: a CNOT-free fan-out.
    """
    qml.Hadamard(wires=2)
    for _ in range(2):
        qml.QFT(wires=[0, 1, 2])
    for _ in range(2):
        qml.QFT(wires=[3, 4, 2])
    return qml.probs(wires=range(5))
