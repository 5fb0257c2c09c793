import pennylane as qml


def deutsch_jozsa(fs):
    """One Deutsch-Jozsa circuit per function: constant iff both input qubits read 0."""
    dev = qml.device("default.qubit", wires=3, shots=1)

    def is_constant(f):
        @qml.qnode(dev)
        def circuit():
            qml.PauliX(wires=2)
            for wire in range(3):
                qml.Hadamard(wires=wire)
            f(wires=[0, 1, 2])
            for wire in range(2):
                qml.Hadamard(wires=wire)
            return qml.sample(wires=[0, 1])

        return not any(int(bit) for bit in circuit())

    kinds = [is_constant(f) for f in fs]
    return "4 same" if len(set(kinds)) == 1 else "2 and 2"
