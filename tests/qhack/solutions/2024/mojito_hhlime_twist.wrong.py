import pennylane as qml
import pennylane.numpy as np
import scipy


def encode_hermitian(A, wires):
    """Encodes a hermitian matrix A as a unitary U = e^{iA}."""
    return qml.exp(qml.Hermitian(A, wires=wires), coeff=1j)


def inversion_rotation(n_qpe, C):
    """Wrong on purpose: the RY angle is arcsin(C / lambda_k), without the factor 2 that RY's
    half-angle convention needs, so the |1> amplitude is not proportional to 1 / lambda_k.

    Block-diagonal unitary on (QPE register, ancilla): for QPE outcome k, with eigenvalue
    estimate lambda_k = 2 pi k / 2**n (wrapped into [-pi, pi)), the ancilla gets
    RY(2 arcsin(C / lambda_k)), so its |1> amplitude is C / lambda_k; k = 0 is left alone."""
    blocks = []
    for k in range(2**n_qpe):
        lam = 2 * np.pi * k / 2**n_qpe
        if k >= 2 ** (n_qpe - 1):
            lam -= 2 * np.pi
        ratio = 0.0 if k == 0 else float(np.clip(C / lam, -1.0, 1.0))
        angle = np.arcsin(ratio)
        blocks.append(qml.matrix(qml.RY(angle, wires=0)))
    return scipy.linalg.block_diag(*blocks)


def mint_to_lime(A, b):
    """Calculates the optimal mint and lime proportions in the Mojito HHLime twist.

    Returns the solution x of Ax = b (from the b register's probabilities) and the number of
    operations in the HHL circuit."""
    b_qubits = 1
    b_wires = [0]

    qpe_qubits = 10
    qpe_wires = list(range(b_qubits, b_qubits + qpe_qubits))

    ancilla_qubits = 1
    ancilla_wires = list(range(b_qubits + qpe_qubits, ancilla_qubits + b_qubits + qpe_qubits))

    all_wires = b_wires + qpe_wires + ancilla_wires
    dev = qml.device("default.qubit", wires=all_wires)

    # normalisation constant of the inversion: below the smallest eigenvalue of A
    rotation = inversion_rotation(qpe_qubits, 0.01)

    @qml.qnode(dev)
    def HHL(A, b):
        """Implements the HHL algorithm; returns the probabilities of the b register."""
        qml.StatePrep(b / np.linalg.norm(b), wires=b_wires)
        U = encode_hermitian(A, b_wires)
        qml.QuantumPhaseEstimation(U, estimation_wires=qpe_wires)
        qml.QubitUnitary(rotation, wires=qpe_wires + ancilla_wires)
        qml.measure(ancilla_wires[0], postselect=1)
        qml.adjoint(qml.QuantumPhaseEstimation(U, estimation_wires=qpe_wires))
        return qml.probs(wires=b_wires)

    # we return probs, but we need the state itself (it will be real-valued)
    x = np.sqrt(HHL(A, b))

    return x, len(HHL.tape._ops)
