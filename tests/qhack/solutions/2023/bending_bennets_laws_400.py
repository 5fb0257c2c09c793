import pennylane as qml


def zenda_operator():
    """Bell-basis rotation of Zenda's qubit z0 and her half z1 of the shared pair."""
    qml.CNOT(wires=["z0", "z1"])
    qml.Hadamard(wires="z0")


def copier():
    """Copies both (now classical) bits onto the sheet wires s0, s1."""
    qml.CNOT(wires=["z0", "s0"])
    qml.CNOT(wires=["z1", "s1"])


def printer():
    """Teleportation corrections on r1 from the copies: X from s1, Z from s0."""
    qml.CNOT(wires=["s1", "r1"])
    qml.CZ(wires=["s0", "r1"])
