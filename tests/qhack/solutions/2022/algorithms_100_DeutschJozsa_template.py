import pennylane as qml


def deutsch_jozsa(oracle):
    """One-shot Deutsch-Jozsa on two input qubits (wires 0, 1) and an output qubit (wire 2)."""
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
    # All-zero input register <=> f is constant.
    return "constant" if not any(int(bit) for bit in sample) else "balanced"
