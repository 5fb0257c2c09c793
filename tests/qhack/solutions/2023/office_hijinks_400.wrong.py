import pennylane as qml


@qml.qnode(dev)  # noqa: F821 (the template's device)
def circuit(project_execution):
    """Wrong on purpose: textbook Grover start (uniform superposition over all 16 employee
    strings) instead of the superposition of the four three-worker sets; one Grover step over
    16 strings with 2 marked is not exact, so the shot often names a working employee."""
    employees = ["e1", "e2", "e3", "e4"]
    qml.PauliX(wires="result")
    qml.Hadamard(wires="result")
    for w in employees:
        qml.Hadamard(wires=w)
    project_execution(wires=wires)  # noqa: F821 (the template's)
    for w in employees:
        qml.Hadamard(wires=w)
        qml.PauliX(wires=w)
    qml.Hadamard(wires="e4")
    qml.MultiControlledX(wires=["e1", "e2", "e3", "e4"])
    qml.Hadamard(wires="e4")
    for w in employees:
        qml.PauliX(wires=w)
        qml.Hadamard(wires=w)
    return qml.sample(wires=dev.wires)  # noqa: F821


def process_output(measurement):
    """The measured employee bits are read as all 1 except at the lazy employee."""
    bits = [int(b) for b in measurement[:4]]
    return "e" + str(bits.index(0) + 1) if 0 in bits else "e1"
