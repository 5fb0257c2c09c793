import pennylane as qml


def encode(i, j, k):
    if k:
        qml.PauliX(wires=0)
    if j != k:
        qml.PauliX(wires=1)
    if i:
        qml.PauliZ(wires=0)


def decode():
    """Wrong: a doubly-controlled Z (controls 1 and 2, both 1) on wire 0 before the Hadamard
    flips the decoded sign bit when both parities are 1."""
    qml.CNOT(wires=[0, 2])
    qml.CNOT(wires=[0, 1])
    qml.ctrl(qml.PauliZ(wires=0), control=[1, 2])
    qml.Hadamard(wires=0)
