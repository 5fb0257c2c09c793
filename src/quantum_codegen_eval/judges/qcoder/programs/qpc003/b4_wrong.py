"""The wrong solution of QPC003_B4. Its one mistake: the reflection without the X's around the
controlled phase: it reflects about |1...1>, not |0...0>."""

import math

from qiskit import QuantumCircuit
from qiskit.circuit.library.standard_gates import PhaseGate

from ...jobs.ref_lib import _ctrl


def reflect0(qc, qs):
    # I - 2|0><0| (= -(2|0><0| - I): the same up to global phase)
    _ctrl(qc, PhaseGate(math.pi), qs[:-1], [qs[-1]])


def solve(n):
    qc = QuantumCircuit(n)
    reflect0(qc, list(range(n)))
    return qc
