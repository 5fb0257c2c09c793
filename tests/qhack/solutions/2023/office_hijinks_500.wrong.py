import pennylane as qml


@qml.qnode(dev)  # noqa: F821 (the template's device)
def circuit(U):
    """Wrong on purpose: uses U^2 instead of U^3, which is not a global phase for either gate,
    so the control qubit's outcome is random and a single shot cannot tell the gates apart."""
    qml.Hadamard(wires=0)
    for _ in range(2):
        qml.ctrl(U, control=0)(wires=1)
    qml.Hadamard(wires=0)
    return qml.sample(wires=range(2))


def process_output(measurement):
    """Control qubit 1 is read as U = RY(2pi/3), 0 as RY(4pi/3)."""
    return 2 if int(measurement[0]) == 1 else 4
