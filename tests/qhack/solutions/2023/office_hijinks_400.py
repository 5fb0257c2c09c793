import pennylane as qml
from pennylane import numpy as np


@qml.qnode(dev)  # noqa: F821 (the template's device)
def circuit(project_execution):
    """One exact Grover step over the four three-employee sets. With "result" in |-> the oracle
    flips the sign of the one set made of the three workers (the string with a 0 at the lazy
    employee; |1111> gets no amplitude). Reflecting about the equal superposition of the four
    sets (prepare^dagger, reflect about |0000>, prepare) then yields that set with certainty."""
    employees = ["e1", "e2", "e3", "e4"]

    def weight_three_state():
        # (|0111> + |1011> + |1101> + |1110>) / 2: a W state (one excitation split evenly by
        # controlled-RY / CNOT steps), then every bit flipped
        qml.PauliX(wires="e1")
        for i in range(3):
            qml.CRY(2 * np.arccos(1 / np.sqrt(4 - i)), wires=[employees[i], employees[i + 1]])
            qml.CNOT(wires=[employees[i + 1], employees[i]])
        for w in employees:
            qml.PauliX(wires=w)

    qml.PauliX(wires="result")
    qml.Hadamard(wires="result")
    weight_three_state()
    project_execution(wires=wires)  # noqa: F821 (the template's)
    qml.adjoint(weight_three_state)()
    for w in employees:
        qml.PauliX(wires=w)
    qml.Hadamard(wires="e4")
    qml.MultiControlledX(wires=["e1", "e2", "e3", "e4"])
    qml.Hadamard(wires="e4")
    for w in employees:
        qml.PauliX(wires=w)
    weight_three_state()
    return qml.sample(wires=dev.wires)  # noqa: F821


def process_output(measurement):
    """The measured employee bits are all 1 except at the lazy employee."""
    bits = [int(b) for b in measurement[:4]]
    return "e" + str(bits.index(0) + 1)
