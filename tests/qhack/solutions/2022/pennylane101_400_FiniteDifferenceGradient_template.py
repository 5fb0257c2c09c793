import pennylane as qml
from pennylane import numpy as np

dev = qml.device("default.qubit", wires=3)


def my_finite_diff_grad(params):
    gradients = np.zeros([len(params)])
    for i in range(len(params)):
        # QHACK #
        shift = np.zeros_like(params)
        shift[i] = 1e-3
        gradients[i] = (cost(params + shift) - cost(params - shift)) / (2 * 1e-3)  # noqa: F821 (template)
        # QHACK #

    return gradients
