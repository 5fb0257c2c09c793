import pennylane as qml
from pennylane import numpy as np
from pennylane.templates import QuantumPhaseEstimation


def oracle_matrix(indices):
    my_array = np.identity(2 ** 4)
    for index in indices:
        my_array[index, index] = -1
    return my_array


@qml.qnode(dev)  # noqa: F821 (given by the template)
def circuit(indices):
    target_wires = [0, 1, 2, 3]
    estimation_wires = [4, 5, 6, 7]

    for wire in target_wires:
        qml.Hadamard(wires=wire)
    QuantumPhaseEstimation(
        grover_operator(indices),  # noqa: F821 (given by the template)
        target_wires=target_wires,
        estimation_wires=estimation_wires,
    )
    return qml.probs(estimation_wires)


def number_of_solutions(indices):
    probs = circuit(indices)
    decimal = int(np.argmax(probs))
    theta = decimal * np.pi / 8
    return 16 * np.sin(theta) ** 2


def relative_error(indices):
    true_count = len(indices)
    rel_err = (number_of_solutions(indices) - true_count) / true_count * 100
    return rel_err
