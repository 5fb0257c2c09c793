import pennylane as qml
import pennylane.optimize as optimize
from pennylane import numpy as np


def classify_ising_data(ising_configs, labels):
    num_wires = ising_configs.shape[1]
    dev = qml.device("default.qubit", wires=num_wires)
    # the magnetization per site: the order parameter of the ferromagnet
    sites = list(range(num_wires))

    # only 2**num_wires configurations exist: run the circuit once per distinct one
    configs, which = np.unique(np.array(ising_configs), axis=0, return_inverse=True)
    Y = np.array(labels, requires_grad=False)

    @qml.qnode(dev)
    def circuit(angles, config):
        qml.BasisState(config, wires=range(num_wires))
        for w in range(num_wires):
            qml.RY(angles[w], wires=w)
        return [qml.expval(qml.PauliZ(i)) for i in sites]

    def model(angles, site_weights, bias, config):
        return np.dot(site_weights, circuit(angles, config)) + bias

    def cost(angles, site_weights, bias):
        outputs = [model(angles, site_weights, bias, c) for c in configs]
        predictions = [outputs[k] for k in which]
        return square_loss(Y, predictions)  # noqa: F821 (given by the template)

    np.random.seed(0)
    params = [
        np.array(0.1 * np.random.randn(num_wires), requires_grad=True),
        np.zeros(len(sites), requires_grad=True),
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
