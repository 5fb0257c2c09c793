from pennylane import numpy as np


def binary_list(m, n):
    """The n-bit binary expansion of m, most significant bit first."""
    arr = [int(bit) for bit in format(m, f"0{n}b")]
    return arr


def basis_states(n):
    """All computational basis states of n wires as bit lists."""
    arr = [binary_list(m, n) for m in range(2**n)]
    return arr


def is_particle_preserving(circuit, n):
    """Wrong on purpose: counts holes (zeros) of the input instead of particles (ones)."""
    weights = np.array([sum(bits) for bits in basis_states(n)])
    for bits in basis_states(n):
        state = np.asarray(circuit(bits))
        leaked = np.abs(state[weights != n - sum(bits)]) ** 2
        if np.sum(leaked) > 1e-8:
            return False
    return True
