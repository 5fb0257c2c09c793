import pennylane.numpy as np


def qsp_matrix(angles, a):
    """Wrong on purpose: the phase operator's signs are swapped, S(phi) = diag(e^{-i phi},
    e^{i phi}) instead of the statement's diag(e^{i phi}, e^{-i phi}).

    S(phi_0) U(a) S(phi_1) ... U(a) S(phi_d), with S(phi) = diag(e^{i phi}, e^{-i phi})."""
    signal = np.array([[a, np.sqrt(1 - a**2)], [np.sqrt(1 - a**2), -a]], dtype=complex)
    matrix = np.diag([np.exp(-1j * angles[0]), np.exp(1j * angles[0])])
    for phi in angles[1:]:
        matrix = matrix @ signal @ np.diag([np.exp(-1j * phi), np.exp(1j * phi)])
    return matrix


def coefficients(angles):
    """[alpha, beta] of P(a) = alpha a^3 + beta a, from P (the top-left entry of the QSP
    matrix) at two points: a linear system in alpha and beta."""
    points = [0.5, 1.0]
    values = [qsp_matrix(angles, a)[0, 0] for a in points]
    system = np.array([[a**3, a] for a in points], dtype=complex)
    return np.array(np.linalg.solve(system, np.array(values)))
