import pennylane as qml


def encode(i, j, k):
    """Three bits into the GHZ pair on wires 0 and 1: Z on wire 0 sets the sign (i), X on wire 0
    flips both parities x0^x1 and x0^x2 (k), X on wire 1 flips x0^x1 only (to make it j)."""
    if k:
        qml.PauliX(wires=0)
    if j != k:
        qml.PauliX(wires=1)
    if i:
        qml.PauliZ(wires=0)


def decode():
    """GHZ basis to computational basis: sign on wire 0, parities on wires 1 and 2."""
    qml.CNOT(wires=[0, 2])
    qml.CNOT(wires=[0, 1])
    qml.Hadamard(wires=0)
