import pennylane as qml


def bell_preparation(wires):
    """GHZ state (|0000> + |1111>) / sqrt(2): Hadamard on the first wire, then a CNOT chain."""
    qml.Hadamard(wires=wires[0])
    for i in range(len(wires) - 1):
        qml.CNOT(wires=[wires[i], wires[i + 1]])


def emergency_gate_U(wire):
    """Hadamard, so that robot1 is measured in the X basis: the other three wires stay in
    (|000> + (-1)^m |111>) / sqrt(2) instead of collapsing."""
    qml.Hadamard(wires=wire)


def setting_new_robot(output, wires):
    """Undo the sign (-1)^m with Z on the hub when robot1 gave 1, then copy the hub into the
    auxiliary robot with a CNOT: a four-wire GHZ state again."""
    qml.cond(output, qml.PauliZ)(wires=wires[0])
    qml.CNOT(wires=[wires[0], wires[1]])
