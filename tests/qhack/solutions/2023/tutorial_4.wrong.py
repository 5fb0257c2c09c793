from pennylane import numpy as np


def is_product(state, subsystem, wires):
    """Wrong on purpose: tests the trace of the reduced state (always 1), not its purity."""
    n = len(wires)
    first = [wires.index(w) for w in subsystem]
    rest = [i for i in range(n) if i not in first]
    psi = np.reshape(np.array(state, dtype=complex), [2] * n)
    psi = np.transpose(psi, first + rest)
    matrix = np.reshape(psi, (2 ** len(first), 2 ** len(rest)))
    rho = matrix @ np.conj(matrix.T)
    return "yes" if abs(np.trace(rho) - 1) < 1e-3 else "no"
