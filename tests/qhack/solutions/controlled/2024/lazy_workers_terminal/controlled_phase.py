import itertools

import numpy as np
import pennylane as qml

N = 8
WORKERS = list(range(N))
AUX = N


def _pairs():
    """The uniform superposition of the 28 two-worker teams."""
    s = np.zeros(2**N)
    for i, j in itertools.combinations(range(N), 2):
        s[(1 << (N - 1 - i)) | (1 << (N - 1 - j))] = 1
    return s / np.linalg.norm(s)


def _householder(s):
    """A real reflection H (H = H^T = H^-1) with H|0...0> = |s>."""
    v = s.copy()
    v[0] -= 1
    return np.eye(len(s)) - 2 * np.outer(v, v) / (v @ v)


def _phases(length, delta):
    """Fixed-point amplitude amplification phases (Yoder, Low and Chuang, 2014)."""
    half = (length - 1) // 2
    gamma = 1 / np.cosh(np.arccosh(1 / delta) / length)
    a = [2 * np.arctan2(1, np.tan(2 * np.pi * j / length) * np.sqrt(1 - gamma**2))
         for j in range(1, half + 1)]
    return a, [-a[half - j] for j in range(1, half + 1)]


def _phase_on_zero(angle):
    """e^{i angle} on |0...0> of the workers: a seven-controlled phase with zero controls."""
    qml.PauliX(wires=WORKERS[-1])
    qml.ctrl(qml.PhaseShift(angle, wires=WORKERS[-1]), control=WORKERS[:-1],
             control_values=[0] * (N - 1))
    qml.PauliX(wires=WORKERS[-1])


def circuit(oracle):
    """Fixed-point search over the teams; the reflection about the team state is H (phase on
    |0...0>) H with a many-controlled phase gate."""
    h = _householder(_pairs())
    qml.QubitUnitary(h, wires=WORKERS)
    for alpha, beta in zip(*_phases(17, 0.2), strict=True):
        oracle(wires=WORKERS + [AUX])
        qml.PhaseShift(beta, wires=AUX)
        oracle(wires=WORKERS + [AUX])
        qml.QubitUnitary(h, wires=WORKERS)
        _phase_on_zero(-alpha)
        qml.QubitUnitary(h, wires=WORKERS)
