import pennylane as qml


def switch(oracle):
    """Wrong on purpose: reports the switches that do not work."""
    dev = qml.device("default.qubit", wires=[0, 1, 2, "light"], shots=1)

    @qml.qnode(dev)
    def circuit():
        qml.PauliX(wires="light")
        qml.Hadamard(wires="light")
        for wire in range(3):
            qml.Hadamard(wires=wire)
        oracle()
        for wire in range(3):
            qml.Hadamard(wires=wire)
        return qml.sample(wires=range(3))

    sample = circuit()
    return [i for i, bit in enumerate(sample) if int(bit) == 0]
