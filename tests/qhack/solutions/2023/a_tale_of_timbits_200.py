import pennylane as qml

CELL = format(25, "05b")  # Doc Trine's cell, found with Bernstein-Vazirani


def cascadar(guard_state, lmbda):
    dev = qml.device("default.mixed", wires=5 + 4)

    @qml.qnode(dev)
    def circuit():
        qml.QubitStateVector(guard_state, range(5))
        for wire, bit in enumerate(CELL):
            if bit == "0":
                noisy_PauliX(wire, lmbda)  # noqa: F821 (given by the template)
        Toffoli_cascade(list(range(5)), list(range(5, 9)), lmbda)  # noqa: F821 (template)
        return qml.probs(wires=8)

    output = circuit()
    return output[1]
