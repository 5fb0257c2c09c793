import pennylane as qml
from pennylane import numpy as np

PAULIS = {
    "I": np.eye(2),
    "X": np.array([[0, 1], [1, 0]]),
    "Y": np.array([[0, -1j], [1j, 0]]),
    "Z": np.array([[1, 0], [0, -1]]),
}


def noisy_Pauli_density(word, lmbda):
    """Prepare (I + P) / 2**n for the Pauli word P, then depolarize every qubit."""
    n = len(word)
    pauli = np.array([[1.0]])
    for letter in word:
        pauli = np.kron(pauli, PAULIS[letter])
    rho = (np.eye(2**n) + pauli) / 2**n
    qml.QubitDensityMatrix(rho, wires=range(n))
    for w in range(n):
        qml.DepolarizingChannel(lmbda, wires=w)


def maxmix_trace_dist(word, lmbda):
    """T(rho_P(lambda), I / 2**n) = Tr|rho_P(lambda) - I / 2**n| / 2, from the mixed-state simulator."""
    n = len(word)
    dev = qml.device("default.mixed", wires=n)

    @qml.qnode(dev)
    def noisy_density():
        noisy_Pauli_density(word, lmbda)
        return qml.density_matrix(wires=range(n))

    rho = noisy_density()
    return np.real(np.trace(abs_dist(rho, np.eye(2**n) / 2**n))) / 2  # noqa: F821 (given)


def bound_verifier(word, lmbda):
    """Wrong on purpose: |P| is taken as the length of the word, so identity letters are
    counted too (right only for words without I)."""
    return (1 - lmbda) ** len(word) - maxmix_trace_dist(word, lmbda)
