import pennylane as qml
from pennylane import numpy as np


def three_optimization_steps(data):
    data = np.array(data, requires_grad=False)
    data = data / np.linalg.norm(data)
    dev = qml.device("default.qubit", wires=3)

    @qml.qnode(dev)
    def cost(weights, data=data):
        qml.AmplitudeEmbedding(features=data, wires=range(3))
        qml.BasicEntanglerLayers(weights, wires=range(3))
        return qml.expval(qml.PauliZ(0) + qml.PauliZ(1) + qml.PauliZ(2))

    shape = qml.BasicEntanglerLayers.shape(n_layers=2, n_wires=dev.num_wires)
    weights = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], requires_grad=True).reshape(shape)
    opt = qml.GradientDescentOptimizer(stepsize=0.01)
    for it in range(3):
        weights, prev_cost = opt.step_and_cost(cost, weights)
        print("step", it, prev_cost)
    return cost(weights, data=data)
