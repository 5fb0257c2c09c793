import pennylane as qml


def binary_to_grey(num_wires):
    """Gray code g_i = b_i XOR b_{i-1} (wire 0 most significant), from the last wire up."""
    for i in range(num_wires - 1, 0, -1):
        qml.CNOT(wires=[i - 1, i])
