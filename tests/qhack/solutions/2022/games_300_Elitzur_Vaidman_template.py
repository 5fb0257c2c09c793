import pennylane as qml
from pennylane import numpy as np


@qml.qnode(dev)  # noqa: F821 (given by the template)
def is_bomb(angle):
    qml.RY(2 * angle, wires=0)
    return qml.sample(qml.PauliZ(0))


@qml.qnode(dev)  # noqa: F821 (given by the template)
def bomb_tester(angle):
    # the photon that passed the bomb left through port 1
    qml.PauliX(wires=0)
    qml.RY(2 * angle, wires=0)
    return qml.sample(qml.PauliZ(0))


def simulate(angle, n):
    total = 10000
    survivors = total
    for _ in range(n):
        if survivors == 0:
            break
        # +1 means the photon went through branch 0: the bomb explodes
        outcomes = np.atleast_1d(is_bomb(angle, shots=survivors))
        survivors = int(np.sum(outcomes == -1))
    if survivors == 0:
        return 0.0
    final = np.atleast_1d(bomb_tester(angle, shots=survivors))
    d_beeps = int(np.sum(final == 1))
    return d_beeps / survivors
