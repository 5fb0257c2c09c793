from pennylane import numpy as np


def is_product(state, subsystem, wires):
    """"yes" when the Schmidt rank across subsystem | rest is 1, else "no"."""
    n = len(wires)
    first = [wires.index(w) for w in subsystem]
    rest = [i for i in range(n) if i not in first]
    psi = np.reshape(np.array(state, dtype=complex), [2] * n)
    psi = np.transpose(psi, first + rest)
    matrix = np.reshape(psi, (2 ** len(first), 2 ** len(rest)))
    singular = np.linalg.svd(matrix, compute_uv=False)
    singular = singular / np.linalg.norm(singular)
    return "yes" if np.all(singular[1:] < 1e-6) else "no"
