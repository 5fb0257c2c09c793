import pennylane as qml
from pennylane import numpy as np


def compute_entanglement(theta):
    """Second Renyi entropy of qubit B without (mu_B) and with (rho_B) the tardigrade."""
    dev = qml.device("default.qubit", wires=3)

    @qml.qnode(dev)
    def without_tardigrade():
        # (|01> + |10>) / sqrt(2) on A, B
        qml.Hadamard(wires=0)
        qml.PauliX(wires=1)
        qml.CNOT(wires=[0, 1])
        return qml.density_matrix(wires=[1])

    @qml.qnode(dev)
    def with_tardigrade():
        # (|0>_A (cos t/2 |10> + sin t/2 |01>)_BT + |1>_A |00>_BT) / sqrt(2)
        qml.Hadamard(wires=0)
        # Controlled on A = 0 (A flipped): B -> sin(t/2)|0> + cos(t/2)|1>, then T flips when B = 0
        qml.PauliX(wires=0)
        qml.CRY(np.pi - theta, wires=[0, 1])
        qml.PauliX(wires=1)
        qml.Toffoli(wires=[0, 1, 2])
        qml.PauliX(wires=1)
        qml.PauliX(wires=0)
        return qml.density_matrix(wires=[1])

    mu_b = without_tardigrade()
    rho_b = with_tardigrade()
    return second_renyi_entropy(mu_b), second_renyi_entropy(rho_b)  # noqa: F821 (template)
