import pennylane as qml


def _count_down(control, q0, q1):
    qml.CNOT(wires=[q0, q1])
    qml.ctrl(qml.PauliX(wires=q0), control=[control, q1], control_values=[1, 0])
    qml.CNOT(wires=[q0, q1])
    qml.ctrl(qml.PauliX(wires=q0), control=[control, q1], control_values=[1, 0])


def U():
    """The counter, then qubit 2 flipped when none of qubits 3-9 carries cargo: wrong."""
    for i in range(3):
        qml.SWAP(wires=[i, 10 + i])
    for wire in range(3, 10):
        _count_down(wire, 0, 1)
    qml.ctrl(qml.PauliX(wires=2), control=list(range(3, 10)), control_values=[0] * 7)
