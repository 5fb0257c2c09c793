import pennylane as qml
import pennylane.numpy as np
import scipy

H = np.array(
    [
        [0.39488016, 0.04722628, -0.17943126, -0.03673282],
        [0.04722628, 0.37758558, 0.12997088, 0.17848188],
        [-0.17943126, 0.12997088, 0.53582574, 0.01115543],
        [-0.03673282, 0.17848188, 0.01115543, 0.29170851],
    ]
)

U = scipy.linalg.expm(2j * np.pi * H)


def state_prep(params, wires):
    """Wrong on purpose: the CNOT's control and target are swapped (the figure's control is the
    first wire).

    RY(theta_1) and RY(theta_2) on the two wires, a CNOT, then RY(theta_3) on the second."""
    qml.RY(params[0], wires=wires[0])
    qml.RY(params[1], wires=wires[1])
    qml.CNOT(wires=[wires[1], wires[0]])
    qml.RY(params[2], wires=wires[1])


dev = qml.device("lightning.qubit", wires=range(8))


@qml.qnode(dev)
def qpe_circuit(params):
    """QPE of U on target wires 6, 7 (prepared by state_prep) with estimation wires 0-5."""
    estimation_wires = list(range(6))
    target_wires = [6, 7]
    state_prep(params, target_wires)
    qml.QuantumPhaseEstimation(
        qml.QubitUnitary(U, wires=target_wires), estimation_wires=estimation_wires
    )
    return qml.probs(wires=estimation_wires)


def compute_statistics(params):
    """Mean and standard deviation of the phase k / 2**6 under the QPE distribution."""
    probs = qpe_circuit(params)
    phases = np.arange(len(probs)) / len(probs)
    mu = float(np.sum(probs * phases))
    sigma = float(np.sqrt(np.sum(probs * (phases - mu) ** 2)))
    return mu, sigma
