import pennylane as qml
import pennylane.numpy as np


def state_prep(player_coeffs, goalie_coeffs):
    """One StatePrep of |psi> (x) |phi> on (player1, player2, goalie)."""
    alpha, beta, kappa = player_coeffs
    gamma, delta = goalie_coeffs
    psi = np.array([kappa, alpha, beta, kappa])  # |00>, |01>, |10>, |11>
    phi = np.array([gamma, delta])
    qml.StatePrep(np.kron(psi, phi), wires=["player1", "player2", "goalie"])


def _goalie_turn(gamma, delta, new_gamma, new_delta):
    """The RY angle turning gamma|0> + delta|1> into new_gamma|0> + new_delta|1>."""
    return 2 * np.arctan2(new_delta, new_gamma) - 2 * np.arctan2(delta, gamma)


@qml.qnode(dev)  # noqa: F821 - `dev` is the template's
def save_percentage(player_coeffs, goalie_coeffs, x, y, z):
    """Wrong on purpose: on 00 or 11 it scales |gamma|^2 by z instead of |delta|^2.
    Measure both players; on 10 the goalie's |gamma|^2 becomes x|gamma|^2, on 01 it becomes
    y|gamma|^2, on 00 or 11 |delta|^2 becomes z|delta|^2: each update is one RY on the goalie
    under a qml.cond (StatePrep + 2 measurements + 3 conditionals = 6 operations)."""
    state_prep(player_coeffs, goalie_coeffs)
    gamma, delta = goalie_coeffs

    m1 = qml.measure("player1")
    m2 = qml.measure("player2")
    g_x = np.sqrt(x) * gamma
    g_y = np.sqrt(y) * gamma
    g_z = np.sqrt(z) * gamma
    qml.cond(m1 & ~m2, qml.RY)(
        _goalie_turn(gamma, delta, g_x, np.sqrt(1 - g_x**2)), wires="goalie")
    qml.cond(~m1 & m2, qml.RY)(
        _goalie_turn(gamma, delta, g_y, np.sqrt(1 - g_y**2)), wires="goalie")
    qml.cond(m1 == m2, qml.RY)(
        _goalie_turn(gamma, delta, g_z, np.sqrt(1 - g_z**2)), wires="goalie")

    return qml.probs(wires="goalie")
