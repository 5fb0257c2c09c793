import pennylane as qml


def phase_oracle(oracle):
    """The oracle to the 4th power with wire 3 in |0>: RY(+-pi/2)^4 = RY(+-2 pi) = -I, so
    district j gets the phase -1 if it holds a special building and wire 3 returns to |0>
    (one qml.pow instead of four calls: the harness builds the oracle's matrix once per use)."""
    qml.pow(oracle(wires=[0, 1, 2, 3]), 4)


def is_safe_configuration(oracle):
    """Deutsch-Jozsa on the two low district bits (wires 1, 2; wire 0 stays |0>).

    The phase oracle, then X on the top bit, the phase oracle again and X back, gives district
    c = 0..3 the phase (-1)^f(c) with f(c) = [c is special] xor [c + 4 is special]. When the two
    buildings are 4 districts apart (opposite: the harness's target 1) f is constant 0; otherwise
    f is 1 on two of the four c (balanced). Hadamards return |00> on wires 1, 2 with certainty in
    the constant case and never in the balanced case; a Toffoli on the negated bits writes that
    onto wire 4.
    """
    qml.Hadamard(wires=1)
    qml.Hadamard(wires=2)
    phase_oracle(oracle)
    qml.PauliX(wires=0)
    phase_oracle(oracle)
    qml.PauliX(wires=0)
    qml.Hadamard(wires=1)
    qml.Hadamard(wires=2)

    qml.PauliX(wires=1)
    qml.PauliX(wires=2)
    qml.Toffoli(wires=[1, 2, 4])
