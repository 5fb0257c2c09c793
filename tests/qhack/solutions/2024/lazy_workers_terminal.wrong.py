import itertools

import pennylane as qml
import pennylane.numpy as np

N_WORKERS = 8


def pairs_state():
    """Uniform superposition of the 28 teams of exactly two workers (a Dicke state)."""
    state = np.zeros(2**N_WORKERS)
    for i, j in itertools.combinations(range(N_WORKERS), 2):
        state[2 ** (N_WORKERS - 1 - i) + 2 ** (N_WORKERS - 1 - j)] = 1
    return state / np.linalg.norm(state)


def fixed_point_phases(L, delta):
    """Phases (alpha_j, beta_j) of fixed-point amplitude amplification (Yoder, Low, Chuang
    2014) with L = 2l + 1 queries: success >= 1 - delta^2 whatever the marked fraction above
    about (log(2 / delta) / L)^2."""
    l_steps = (L - 1) // 2
    gamma = 1 / np.cosh(np.arccosh(1 / delta) / L)
    alphas = [
        2 * np.arctan2(1, np.tan(2 * np.pi * j / L) * np.sqrt(1 - gamma**2))
        for j in range(1, l_steps + 1)
    ]
    betas = [-alphas[l_steps - j] for j in range(1, l_steps + 1)]
    return alphas, betas


def circuit(oracle):
    """Wrong on purpose: plain Grover (phases pi) with round(pi / 4 * sqrt(28)) = 4 steps, tuned
    for a single marked team; with more non-lazy workers it overshoots.

    Fixed-point amplitude amplification inside the two-worker teams: a team is marked when
    both are non-lazy. The number of non-lazy workers is unknown, so plain Grover (which
    overshoots) is replaced by the fixed-point phases; 8 steps give >= 0.96 for every count."""
    s = pairs_state()
    projector = np.outer(s, s)
    workers = list(range(N_WORKERS))
    aux = N_WORKERS
    qml.StatePrep(s, wires=workers)
    alphas, betas = [np.pi] * 4, [np.pi] * 4
    for alpha, beta in zip(alphas, betas, strict=True):
        # e^{i beta} on marked teams: compute the oracle bit, phase it, uncompute
        oracle(wires=workers + [aux])
        qml.PhaseShift(beta, wires=aux)
        oracle(wires=workers + [aux])
        # I - (1 - e^{-i alpha}) |s><s|
        reflection = np.eye(2**N_WORKERS) - (1 - np.exp(-1j * alpha)) * projector
        qml.QubitUnitary(reflection, wires=workers)
