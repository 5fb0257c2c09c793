import numpy as np


def givens_rotations(a, b, c, d):
    """theta_3 from the single excitation (a, d), theta_2 from the second double excitation (b, c),
    theta_1 from what is left; arctan keeps every angle in (-pi, pi]."""
    theta_3 = 2 * np.arctan(-d / a)
    theta_2 = 2 * np.arctan(-c / b)
    s1 = -b / np.cos(theta_2 / 2)
    c1 = a / np.cos(theta_3 / 2)
    theta_1 = 2 * np.arctan2(s1, c1)
    return theta_1, theta_2, theta_3
