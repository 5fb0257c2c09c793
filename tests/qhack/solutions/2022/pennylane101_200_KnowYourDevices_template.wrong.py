import pennylane as qml


def compare_circuits(num_wires, params):
    """Wrong on purpose: the mixed circuit uses RX instead of RY."""
    pure_dev = qml.device("default.qubit", wires=num_wires)
    mixed_dev = qml.device("default.mixed", wires=num_wires)

    @qml.qnode(pure_dev)
    def pure_circuit():
        for wire in range(num_wires):
            qml.RY(params[0][wire], wires=wire)
        return qml.state()

    @qml.qnode(mixed_dev)
    def mixed_circuit():
        for wire in range(num_wires):
            qml.RX(params[1][wire], wires=wire)
        return qml.state()

    mixed_state = mixed_circuit()
    pure_state = pure_circuit()
    mat_norm = matrix_norm(mixed_state, pure_state)  # noqa: F821 (given by the template)

    return mat_norm
