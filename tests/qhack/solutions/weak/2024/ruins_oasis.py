import pennylane as qml


def circuit(oracle):
    """Wrong on purpose: reads the signs of villages 00 and 11 out of the oracle's matrix
    (columns 0 and 6, one entry of +-1 each) and sets wire 2 from them; its one query, on |00>
    with wire 2 in |+>, learns nothing."""
    with qml.QueuingManager.stop_recording():
        matrix = qml.matrix(oracle(wires=[0, 1, 2]))
    qml.Hadamard(wires=2)
    oracle(wires=[0, 1, 2])
    qml.Hadamard(wires=2)
    if matrix[:, 0].sum().real * matrix[:, 6].sum().real < 0:
        qml.PauliX(wires=2)
