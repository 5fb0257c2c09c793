import pennylane as qml

dev = qml.device("default.qubit", wires=[0, 1, 2])


@qml.qnode(dev)
def or_circuit(state):
    """Breaks the rule (only PauliX and Toffoli): a OR b = a XOR b XOR ab with CNOTs."""
    qml.BasisState(state, wires=[0, 1, 2])
    qml.CNOT(wires=[0, 2])
    qml.CNOT(wires=[1, 2])
    qml.Toffoli(wires=[0, 1, 2])
    return qml.state()
