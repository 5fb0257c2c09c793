import pennylane as qml


def deutsch_jozsa(oracle):
    """Wrong on purpose: the answers are swapped."""
    dev = qml.device("default.qubit", wires=3, shots=1)

    @qml.qnode(dev)
    def circuit():
        qml.PauliX(wires=2)
        for wire in range(3):
            qml.Hadamard(wires=wire)

        oracle()

        for wire in range(2):
            qml.Hadamard(wires=wire)

        return qml.sample(wires=range(2))

    sample = circuit()
    return "balanced" if not any(int(bit) for bit in sample) else "constant"
