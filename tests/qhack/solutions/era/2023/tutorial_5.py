import pennylane as qml
from pennylane import numpy as np


def num_electrons(charge):
    return 2 - charge


def hf(electrons, num_qubits):
    return qml.qchem.hf_state(electrons, num_qubits)


def run_VQE(coordinates, charge):
    hamiltonian = hydrogen_hamiltonian(np.array(coordinates), charge)  # noqa: F821 (given)
    electrons = num_electrons(charge)
    num_qubits = len(hamiltonian.wires)
    hf_state = hf(electrons, num_qubits)
    singles, doubles = qml.qchem.excitations(electrons, num_qubits)
    dev = qml.device("default.qubit", wires=num_qubits)

    @qml.qnode(dev)
    def cost(weights):
        qml.AllSinglesDoubles(weights, wires=range(num_qubits), hf_state=hf_state,
                              singles=singles, doubles=doubles)
        return qml.expval(hamiltonian)

    np.random.seed = 1234
    weights = np.random.normal(0, np.pi, len(singles) + len(doubles), requires_grad=True)
    opt = qml.AdamOptimizer(0.5)
    for _ in range(200):
        weights = opt.step(cost, weights)
    return cost(weights)
