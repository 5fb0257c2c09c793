"""The wrong solution of QPC001_B3 and QPC001_B4. Its one mistake: the reference called with L - 1:
the phase of |L - 1> is not flipped."""

import math

from qiskit import QuantumCircuit
from qiskit.circuit.library.standard_gates import PhaseGate

from ...jobs.ref_lib import _ctrl


def _right(n: int, L: int) -> QuantumCircuit:
    qc = QuantumCircuit(n)
    # [0, L) is a union of blocks: higher bits equal to L's, bit j = 0 where L has bit j set
    for j in reversed(range(n)):  # (L = 2**n flips everything: a global phase)
        if not (L >> j) & 1:
            continue
        controls = list(range(j + 1, n))
        qc.x(j)
        _ctrl(qc, PhaseGate(math.pi), controls, [j], ctrl_state=(L >> (j + 1)) if controls else None)
        qc.x(j)
    return qc


def solve(n, L):
    return _right(n, L - 1)
