import pennylane as qml


def zenda_operator():
    qml.CNOT(wires=["z0", "z1"])


def reece_operator():
    qml.CZ(wires=["r0", "r1"])


def magic_operator():
    """Forgets the Hadamard: the phase bit is never decoded."""
    qml.CNOT(wires=["z1", "r1"])
