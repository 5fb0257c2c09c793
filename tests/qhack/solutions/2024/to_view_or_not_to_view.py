import pennylane as qml

dev = qml.device("default.qubit", wires=[0, 1, 2])


@qml.qnode(dev)
def or_circuit(state):
    """|a>|b>|0> -> |a>|b>|a OR b>, as NOT(AND(NOT a, NOT b)) with X and Toffoli only."""
    qml.BasisState(state, wires=[0, 1, 2])

    qml.PauliX(wires=0)
    qml.PauliX(wires=1)
    qml.Toffoli(wires=[0, 1, 2])
    qml.PauliX(wires=0)
    qml.PauliX(wires=1)
    qml.PauliX(wires=2)

    return qml.state()
