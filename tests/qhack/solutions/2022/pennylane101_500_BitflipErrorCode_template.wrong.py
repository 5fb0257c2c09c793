import pennylane as qml
from pennylane import numpy as np


def error_wire(circuit_output):
    # syndrome (wire 1, wire 2) -> which wire flipped: 00 none, 11 wire 0, 10 wire 1, 01 wire 2
    p00, p01, p10, p11 = circuit_output
    return np.array([p00, p11, p01, p10])


@qml.qnode(dev)  # noqa: F821 (the template's device)
def circuit(p, alpha, tampered_wire):
    qml.QubitDensityMatrix(density_matrix(alpha), wires=[0, 1, 2])  # noqa: F821 (template)
    qml.CNOT(wires=[0, 1])
    qml.CNOT(wires=[0, 2])
    qml.BitFlip(p, wires=int(tampered_wire))
    qml.CNOT(wires=[0, 1])
    qml.CNOT(wires=[0, 2])
    return qml.probs(wires=[1, 2])
