import pennylane as qml

CARGO = range(10)
AUX = (10, 11, 12)


def _count_down(control, q0, q1):
    """Mod-3 down-counter on (q0, q1): 00 -> 11 -> 10 -> 00 when ``control`` is 1."""
    qml.CNOT(wires=[q0, q1])
    qml.ctrl(qml.PauliX(wires=q0), control=[control, q1], control_values=[1, 0])
    qml.CNOT(wires=[q0, q1])
    qml.ctrl(qml.PauliX(wires=q0), control=[control, q1], control_values=[1, 0])


def U():
    """Park qubits 0-2 in the auxiliaries, count the 1s of qubits 3-9 down mod 3 in qubits 0-1.
    Before and after counting, a seven-controlled X (qml.ctrl) toggles the parked auxiliary 12
    when all of qubits 3-9 carry cargo: twice, so nothing changes."""
    for i, a in enumerate(AUX):
        qml.SWAP(wires=[i, a])
    qml.ctrl(qml.PauliX(wires=AUX[2]), control=list(range(3, 10)))
    for wire in range(3, 10):
        _count_down(wire, 0, 1)
    qml.ctrl(qml.PauliX(wires=AUX[2]), control=list(range(3, 10)))
