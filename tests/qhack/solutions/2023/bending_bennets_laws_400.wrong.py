import pennylane as qml


def zenda_operator():
    qml.CNOT(wires=["z0", "z1"])
    qml.Hadamard(wires="z0")


def copier():
    qml.CNOT(wires=["z0", "s0"])
    qml.CNOT(wires=["z1", "s1"])


def printer():
    """Applies only the X correction."""
    qml.CNOT(wires=["s1", "r1"])
