import pennylane as qml


def binary_to_grey(num_wires):
    """Wrong on purpose: control and target of each CNOT are swapped."""
    for i in range(num_wires - 1, 0, -1):
        qml.CNOT(wires=[i, i - 1])
