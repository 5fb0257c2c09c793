import pennylane as qml
import pennylane.numpy as np

symbols = ["H", "H", "H"]


def h3_ground_energy(bond_length):
    """Wrong on purpose: puts each atom ``bond_length`` from the centre of the triangle, so the
    H-H distance is sqrt(3) times too long. Otherwise the exact two-electron ground energy."""
    r = bond_length
    angles = [0.0, 2 * np.pi / 3, 4 * np.pi / 3]
    coordinates = np.array(
        [c for a in angles for c in (r * np.cos(a), r * np.sin(a), 0.0)], requires_grad=False
    )
    hamiltonian, n_qubits = qml.qchem.molecular_hamiltonian(symbols, coordinates, charge=1)
    matrix = hamiltonian.sparse_matrix(wire_order=range(n_qubits)).toarray()
    two_electrons = [i for i in range(2**n_qubits) if bin(i).count("1") == 2]
    block = matrix[np.ix_(two_electrons, two_electrons)]
    return float(np.min(np.linalg.eigvalsh(block)))
