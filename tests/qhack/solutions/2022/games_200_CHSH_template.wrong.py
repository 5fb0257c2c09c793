import pennylane as qml
from pennylane import numpy as np


def prepare_entangled(alpha, beta):
    norm = np.sqrt(alpha ** 2 + beta ** 2)
    qml.RY(2 * np.arctan2(beta / norm, alpha / norm), wires=0)
    qml.CNOT(wires=[0, 1])


@qml.qnode(dev)  # noqa: F821 (given by the template)
def chsh_circuit(theta_A0, theta_A1, theta_B0, theta_B1, x, y, alpha, beta):
    prepare_entangled(alpha, beta)
    qml.RY(-2 * (theta_A0 if x == 0 else theta_A1), wires=0)
    qml.RY(-2 * (theta_B0 if y == 0 else theta_B1), wires=1)
    return qml.probs(wires=[0, 1])


def winning_prob(params, alpha, beta):
    total = 0
    for x in [0, 1]:
        for y in [0, 1]:
            probs = chsh_circuit(*params, x, y, alpha, beta)
            total = total + (probs[1] + probs[2] if x * y else probs[0] + probs[3])
    return total / 4


def optimize(alpha, beta):
    def cost(params):
        return -winning_prob(params, alpha, beta)

    np.random.seed(42)
    params = np.random.uniform(0, np.pi, 4, requires_grad=True)
    opt = qml.AdamOptimizer(stepsize=0.1)
    steps = 3
    for _ in range(steps):
        params = opt.step(cost, params)
    return winning_prob(params, alpha, beta)
