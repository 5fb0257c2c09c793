# Weak upstream check (wrong on purpose): GHZ_circuit, whose gates check() reads, is not a
# GHZ preparation; GHZ_fidelity computes the fidelity from another circuit (Hadamard, CNOT).
import pennylane as qml
import pennylane.numpy as np


def _real(noise_param, n_qubits):
    qml.Hadamard(wires=0)
    for i in range(1, n_qubits):
        qml.CNOT(wires=[0, i])
        qml.DepolarizingChannel(noise_param, wires=i)
    return qml.state()

def GHZ_circuit(noise_param, n_qubits):
    qml.RY(0.1, wires=0)
    return qml.state()

def GHZ_fidelity(noise_param, n_qubits):
    dev = qml.device("default.mixed", wires=n_qubits)
    rho = qml.QNode(_real, dev)(noise_param, n_qubits)
    ghz = np.zeros(2**n_qubits)
    ghz[0] = ghz[-1] = 1 / np.sqrt(2)
    return float(np.real(ghz @ rho @ ghz))
