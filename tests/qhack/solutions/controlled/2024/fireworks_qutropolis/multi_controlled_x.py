import pennylane as qml


def phase_oracle(oracle):
    """The oracle to the 4th power with wire 3 in |0>: RY(+-pi/2)^4 = RY(+-2 pi) = -I, so
    district j gets the phase -1 if it holds a special building and wire 3 returns to |0>
    (one qml.pow instead of four calls: the harness builds the oracle's matrix once per use)."""
    qml.pow(oracle(wires=[0, 1, 2, 3]), 4)


def is_safe_configuration(oracle):
    """Deutsch-Jozsa on the two low district bits (wires 1, 2; wire 0 stays |0>): the phase
    oracle, X on the top bit, the phase oracle again, X back; Hadamards return |00> on wires 1
    and 2 exactly when the two buildings are opposite. Wire 4 is flipped on |000> of wires
    0-2 by a MultiControlledX without work wires."""
    qml.Hadamard(wires=1)
    qml.Hadamard(wires=2)
    phase_oracle(oracle)
    qml.PauliX(wires=0)
    phase_oracle(oracle)
    qml.PauliX(wires=0)
    qml.Hadamard(wires=1)
    qml.Hadamard(wires=2)
    qml.MultiControlledX(wires=[0, 1, 2, 4], control_values="000")
