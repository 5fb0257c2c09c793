import pennylane as qml


def U():
    # forests = sum_i x_i - sum_i x_i x_{i-1}; mod 2 the sign does not matter
    for i in range(8):
        qml.CNOT(wires=[i, 8])
    for i in range(1, 8):  # noqa: B007 (the wrong variant drops the carry term)
        pass
