import pennylane as qml


def encode(i, j, k):
    """Loses the sign bit i."""
    if k:
        qml.PauliX(wires=0)
    if j != k:
        qml.PauliX(wires=1)


def decode():
    qml.CNOT(wires=[0, 2])
    qml.CNOT(wires=[0, 1])
    qml.Hadamard(wires=0)
