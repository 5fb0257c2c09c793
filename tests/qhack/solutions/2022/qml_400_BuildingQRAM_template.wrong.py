import pennylane as qml


def qRAM(thetas):
    def controlled_rotation(index, theta):
        bits = format(index, "03b")[::-1]
        for wire, bit in enumerate(bits):
            if bit == "0":
                qml.PauliX(wires=wire)
        qml.ctrl(qml.RY, control=[0, 1, 2])(theta, wires=3)
        for wire, bit in enumerate(bits):
            if bit == "0":
                qml.PauliX(wires=wire)

    dev = qml.device("default.qubit", wires=range(4))

    @qml.qnode(dev)
    def circuit():
        for wire in range(3):
            qml.Hadamard(wires=wire)
        for index, theta in enumerate(thetas):
            controlled_rotation(index, theta)
        return qml.state()

    return circuit()
