import pennylane as qml


def bell_preparation(wires):
    """GHZ state (|0000> + |1111>) / sqrt(2): Hadamard on the first wire, then a CNOT chain."""
    qml.Hadamard(wires=wires[0])
    for i in range(len(wires) - 1):
        qml.CNOT(wires=[wires[i], wires[i + 1]])


def emergency_gate_U(wire):
    """Hadamard, so that robot1 is measured in the X basis."""
    qml.Hadamard(wires=wire)


def setting_new_robot(output, wires):
    """Copy the hub into the auxiliary robot with a CNOT.

    Wrong on purpose: the conditional Z that undoes the sign left by outcome 1 is missing, so the
    final state is an even mixture of the two GHZ states with + and - signs."""
    qml.CNOT(wires=[wires[0], wires[1]])
