import pennylane as qml


def circuit(oracle):
    """Forgets the final NOT: reports "11" instead of "not 11"."""
    for wire in range(3):
        qml.Hadamard(wires=wire)
    oracle(wires=[0, 1, 2])
    for wire in range(3):
        qml.Hadamard(wires=wire)
    qml.Toffoli(wires=[0, 1, 2])
