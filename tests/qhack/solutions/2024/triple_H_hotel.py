import pennylane as qml
import pennylane.numpy as np

symbols = ["H", "H", "H"]


def h3_ground_energy(bond_length):
    """Ground energy of H3+ (equilateral triangle, side ``bond_length`` in Bohr, STO-3G).

    Exact diagonalisation of the qubit Hamiltonian restricted to the two-electron sector gives
    the energy a converged VQE would reach.
    """
    d = bond_length
    coordinates = np.array(
        [0.0, 0.0, 0.0, d, 0.0, 0.0, d / 2, d * np.sqrt(3) / 2, 0.0], requires_grad=False
    )
    hamiltonian, n_qubits = qml.qchem.molecular_hamiltonian(symbols, coordinates, charge=1)
    matrix = hamiltonian.sparse_matrix(wire_order=range(n_qubits)).toarray()
    two_electrons = [i for i in range(2**n_qubits) if bin(i).count("1") == 2]
    block = matrix[np.ix_(two_electrons, two_electrons)]
    return float(np.min(np.linalg.eigvalsh(block)))
