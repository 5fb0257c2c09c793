import pennylane as qml


@qml.qnode(dev)  # noqa: F821 (the template's device)
def circuit(U):
    """Phase kickback of U^3: RY(2pi/3)^3 = RY(2pi) = -I while RY(4pi/3)^3 = RY(4pi) = +I, so
    three controlled-U's on a |+> control leave it in |-> (U = RY(2pi/3)) or |+> (U = RY(4pi/3));
    a final Hadamard turns that into a certain 1 or 0 on wire 0."""
    qml.Hadamard(wires=0)
    for _ in range(3):
        qml.ctrl(U, control=0)(wires=1)
    qml.Hadamard(wires=0)
    return qml.sample(wires=range(2))


def process_output(measurement):
    """Control qubit 1 means the phase -1, i.e. U = RY(2pi/3); 0 means RY(4pi/3)."""
    return 2 if int(measurement[0]) == 1 else 4
