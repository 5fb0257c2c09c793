import pennylane as qml
from pennylane import numpy as np


def _reduced(rho_2q, keep):
    """The one-qubit density matrix of wire ``keep`` (0 or 1) of a two-qubit density matrix."""
    r = np.reshape(rho_2q, (2, 2, 2, 2))
    return np.einsum("ijkj->ik", r) if keep == 0 else np.einsum("ijil->jl", r)


def calculate_timbit(U, rho_0, rho, n_iters):
    """Iterate C_U[rho] = Tr_0[U (rho_0 x rho) U^dagger] from the guess until its fixed point."""
    U = np.array(U, dtype=complex)
    rho_0 = np.array(rho_0, dtype=complex)
    timbit = np.array(rho, dtype=complex)
    for _ in range(n_iters):
        timbit = _reduced(U @ np.kron(rho_0, timbit) @ U.conj().T, keep=1)
    return timbit


def apply_timbit_gate(U, rho_0, timbit):
    """T_U[rho_0] = Tr_1[U (rho_0 x timbit) U^dagger]."""
    U = np.array(U, dtype=complex)
    joint = U @ np.kron(np.array(rho_0, dtype=complex), np.array(timbit, dtype=complex))
    return _reduced(joint @ U.conj().T, keep=0)


def SAT(U_f, q, rho, n_bits):
    """Wrong on purpose: the timbit is computed once, for the oracle's output state, and reused
    by every later timbit gate, though the fixed point depends on the gate's input state."""
    n_wires = int(np.log2(len(U_f)))
    dev = qml.device("default.qubit", wires=n_wires)

    @qml.qnode(dev)
    def oracle_output():
        for w in range(n_wires - 1):
            qml.Hadamard(wires=w)
        qml.QubitUnitary(np.array(U_f), wires=range(n_wires))
        return qml.density_matrix(wires=[n_wires - 1])

    state = np.array(oracle_output(), dtype=complex)
    timbit = calculate_timbit(U_NP, state, rho, 100)  # noqa: F821 (given)
    for _ in range(q):
        state = apply_timbit_gate(U_NP, state, timbit)  # noqa: F821 (given)
    return [float(p) for p in np.real(np.diag(state))]  # plain floats: run() prints a list of them
