import pennylane as qml


@qml.qnode(dev)  # noqa: F821 (the template's device)
def superdense_coding(bits, alpha):
    """Superdense coding from cos(a)|00> + sin(a)|11>; probabilities of Bob's readout."""
    # Imperfect entangler
    qml.RY(2 * alpha, wires=0)
    qml.CNOT(wires=[0, 1])

    # Alice encodes two bits on her qubit (wire 0): 1 -> X, 2 -> Z, 3 -> X then Z
    if bits in (1, 3):
        qml.PauliX(wires=0)
    if bits in (2, 3):
        qml.PauliZ(wires=0)

    # Bob decodes in the Bell basis
    qml.CNOT(wires=[0, 1])
    qml.Hadamard(wires=0)

    return qml.probs(wires=[0, 1])
