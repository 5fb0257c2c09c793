import pennylane as qml
import pennylane.optimize as optimize
from pennylane import numpy as np


def classify_ising_data(ising_configs, labels):
    num_wires = ising_configs.shape[1]
    dev = qml.device("default.qubit", wires=num_wires)
    # nearest-neighbour bonds of the periodic chain: the terms of the Ising Hamiltonian
    bonds = [(i, (i + 1) % num_wires) for i in range(num_wires)]

    # only 2**num_wires configurations exist: run the circuit once per distinct one
    configs, which = np.unique(np.array(ising_configs), axis=0, return_inverse=True)
    Y = np.array(labels, requires_grad=False)

    @qml.qnode(dev)
    def circuit(angles, config):
        qml.BasisState(config, wires=range(num_wires))
        for w in range(num_wires):
            qml.RY(angles[w], wires=w)
        return [qml.expval(qml.PauliZ(i) @ qml.PauliZ(j)) for i, j in bonds]

    def model(angles, bond_weights, bias, config):
        return np.dot(bond_weights, circuit(angles, config)) + bias

    def cost(angles, bond_weights, bias):
        outputs = [model(angles, bond_weights, bias, c) for c in configs]
        predictions = [outputs[k] for k in which]
        return square_loss(Y, predictions)  # noqa: F821 (given by the template)

    np.random.seed(0)
    params = [
        np.array(0.1 * np.random.randn(num_wires), requires_grad=True),
        np.zeros(len(bonds), requires_grad=True),
        np.array(0.0, requires_grad=True),
    ]
    opt = optimize.AdamOptimizer(stepsize=0.1)

    def predict(params):
        signs = [1 if model(*params, c) > 0 else -1 for c in configs]
        return [signs[k] for k in which]

    for step in range(30):
        params = opt.step(cost, *params)
        # the template allows stopping once the accuracy is above the tolerance
        if step % 10 == 9 and accuracy(Y, predict(params)) > 0.9:  # noqa: F821 (template's)
            break

    predictions = predict(params)
    return predictions
