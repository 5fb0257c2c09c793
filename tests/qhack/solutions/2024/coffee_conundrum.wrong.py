import pennylane as qml
import pennylane.numpy as np


class AbsMagnetization(qml.measurements.StateMeasurement):
    """A measurement class that estimates <|M|>."""

    def process_state(self, state, wire_order):
        """<|M|>: each basis state's probability times |sum_i <sigma|Z_i|sigma>| / N."""
        state = qml.state().process_state(state, wire_order)
        n = len(wire_order)
        probs = np.abs(np.reshape(state, (-1,))) ** 2
        spins = np.array([abs(n - 2 * bin(k).count("1")) for k in range(2**n)])
        return float(np.sum(probs * spins)) / n


def tfim_ground_state(num_qubits, h):
    """Wrong on purpose: the chain is closed into a ring (periodic boundary), which adds a
    bond between the last and first spin; the statement's chain is open.

    Lowest eigenvector of H = -sum_i Z_i Z_{i+1} - h sum_i X_i."""
    coeffs, ops = [], []
    for i in range(num_qubits):
        coeffs.append(-1.0)
        ops.append(qml.PauliZ(i) @ qml.PauliZ((i + 1) % num_qubits))
    for i in range(num_qubits):
        coeffs.append(-h)
        ops.append(qml.PauliX(i))
    H = qml.Hamiltonian(coeffs, ops)
    matrix = qml.matrix(H, wire_order=range(num_qubits))
    _, vectors = np.linalg.eigh(matrix)
    return np.array(vectors[:, 0], requires_grad=False)


dev = qml.device("default.qubit")


@qml.qnode(dev)
def magnetization(num_qubits, h):
    """Prepares the TFIM ground state and measures <|M|>."""
    qml.StatePrep(tfim_ground_state(num_qubits, h), wires=range(num_qubits))
    return AbsMagnetization(wires=list(range(num_qubits)))
