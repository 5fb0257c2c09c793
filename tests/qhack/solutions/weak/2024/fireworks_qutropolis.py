import pennylane as qml


def is_safe_configuration(oracle):
    """Wrong on purpose: reads the two buildings out of the oracle's closure and sets wire 4
    when they are opposite (4 districts apart), without a query."""
    b = oracle.__closure__[oracle.__code__.co_freevars.index("buildings")].cell_contents
    if 2 * abs(b[0] - b[1]) % 8 == 0:
        qml.PauliX(wires=4)
