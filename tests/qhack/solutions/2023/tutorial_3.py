import pennylane as qml
from pennylane import numpy as np


def encode():
    qml.CNOT(wires=[0, 3])
    qml.CNOT(wires=[0, 6])
    for w in (0, 3, 6):
        qml.Hadamard(wires=w)
        qml.CNOT(wires=[w, w + 1])
        qml.CNOT(wires=[w, w + 2])


def decode():
    for w in (0, 3, 6):
        qml.CNOT(wires=[w, w + 1])
        qml.CNOT(wires=[w, w + 2])
        qml.Toffoli(wires=[w + 2, w + 1, w])
        qml.Hadamard(wires=w)
    qml.CNOT(wires=[0, 3])
    qml.CNOT(wires=[0, 6])
    qml.Toffoli(wires=[6, 3, 0])


@qml.qnode(dev)  # noqa: F821 (given by the template)
def shor(state, error_key, qubit):
    qml.QubitStateVector(np.array(state), wires=0)
    encode()
    error(error_key, qubit)  # noqa: F821 (given by the template)
    decode()
    return [qml.expval(qml.PauliZ(w)) for w in range(n_qubits)]  # noqa: F821 (given by the template)
