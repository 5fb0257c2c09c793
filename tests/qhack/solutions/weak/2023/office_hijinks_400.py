import pennylane as qml


@qml.qnode(dev)  # noqa: F821 (the template's device)
def circuit(project_execution):
    """Wrong on purpose: reads the three working employees out of the oracle's closure and sets
    the lazy one's bit; the one query, with the others' bits at 0, does nothing."""
    code, cells = project_execution.__code__, project_execution.__closure__
    working = cells[code.co_freevars.index("no_lazy")].cell_contents
    lazy = next(i for i in range(4) if i not in working)
    qml.PauliX(wires=wires[lazy])  # noqa: F821 (the template's)
    project_execution(wires=wires)  # noqa: F821
    return qml.sample(wires=dev.wires)  # noqa: F821


def process_output(measurement):
    return f"e{list(measurement[:4]).index(1) + 1}"
