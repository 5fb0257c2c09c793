import pennylane as qml


def _flip_first_if_second_zero(control, q0, q1):
    """X on q0 when control = 1 and q1 = 0."""
    qml.PauliX(wires=q1)
    qml.Toffoli(wires=[control, q1, q0])
    qml.PauliX(wires=q1)


def _count_down(control, q0, q1):
    """Mod-3 counter on (q0, q1) with 0 = |00>, 1 = |10>, 2 = |11>: subtracts 1 when control
    is 1, i.e. the cycle 00 -> 11 -> 10 -> 00, written as swap(00, 11) then swap(00, 10)."""
    qml.CNOT(wires=[q0, q1])
    _flip_first_if_second_zero(control, q0, q1)
    qml.CNOT(wires=[q0, q1])
    _flip_first_if_second_zero(control, q0, q1)


def U():
    """Parks cargo qubits 0-2 in the auxiliary qubits 10-12; qubits 0 and 1 (now |0>) become a
    counter of -(number of 1s in qubits 3-9) mod 3, whose own number of 1s (0, 1 or 2) makes
    the ten cargo qubits hold a multiple of three 1s. Reversible: nothing is lost."""
    for i in range(3):
        qml.SWAP(wires=[i, 10 + i])
    for wire in range(3, 10):
        _count_down(wire, 0, 1)
