import pennylane as qml
import pennylane.numpy as np


def GHZ_circuit(noise_param, n_qubits):
    """Wrong on purpose: the noise model (depolarizing channel after each CZ) is left out.

    GHZ state from RY and CZ only: CNOT(0, i) = RY(pi/2)_i CZ RY(-pi/2)_i, with a
    depolarizing channel on the target after every CZ; returns the density matrix."""
    qml.RY(np.pi / 2, wires=0)
    for i in range(1, n_qubits):
        qml.RY(-np.pi / 2, wires=i)
        qml.CZ(wires=[0, i])
        qml.RY(np.pi / 2, wires=i)
    return qml.state()


def GHZ_fidelity(noise_param, n_qubits):
    """Fidelity <GHZ| rho |GHZ> of the noisy state with the ideal GHZ state."""
    dev = qml.device("default.mixed", wires=n_qubits)

    GHZ_QNode = qml.QNode(GHZ_circuit, dev)

    rho = GHZ_QNode(noise_param, n_qubits)
    ghz = np.zeros(2**n_qubits)
    ghz[0] = ghz[-1] = 1 / np.sqrt(2)
    return float(np.real(ghz @ rho @ ghz))
