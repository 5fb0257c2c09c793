import pennylane as qml


def zenda_operator():
    """X on z1 when j = 1: flips the parity of the shared Bell pair."""
    qml.CNOT(wires=["z0", "z1"])


def reece_operator():
    """Z on r1 when k = 1: flips the phase of the shared Bell pair."""
    qml.CZ(wires=["r0", "r1"])


def magic_operator():
    """Bell-basis decoding: the phase bit (k) lands on z1, the parity bit (j) on r1."""
    qml.CNOT(wires=["z1", "r1"])
    qml.Hadamard(wires="z1")
