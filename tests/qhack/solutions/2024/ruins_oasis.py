import pennylane as qml


def circuit(oracle):
    """One query with the output wire in |+> (the X part of the oracle acts trivially there),
    so the inputs pick up only the signs s(v). After Hadamards the inputs are |11> exactly when
    s(00) == s(11) (then target 0), and never |11> otherwise; the output wire reports "not 11"."""
    for wire in range(3):
        qml.Hadamard(wires=wire)
    oracle(wires=[0, 1, 2])
    for wire in range(3):
        qml.Hadamard(wires=wire)
    qml.Toffoli(wires=[0, 1, 2])
    qml.PauliX(wires=2)
