import pennylane as qml


def hamiltonian(num_wires):
    """H = 1/3 sum_{i<j} X_i X_j - sum_i Z_i."""
    coeffs, ops = [], []
    for i in range(num_wires):
        for j in range(i + 1, num_wires):
            coeffs.append(1 / 3)
            ops.append(qml.PauliX(i) @ qml.PauliX(j))
    for i in range(num_wires):
        coeffs.append(-1.0)
        ops.append(qml.PauliZ(i))
    return qml.Hamiltonian(coeffs, ops)


def expectation_value(num_wires):
    """<H> after a Hadamard on every qubit."""
    dev = qml.device("default.qubit", wires=num_wires)

    @qml.qnode(dev)
    def circuit(num_wires):
        for wire in range(num_wires):
            qml.Hadamard(wires=wire)
        return qml.expval(hamiltonian(num_wires))

    return circuit(num_wires)
