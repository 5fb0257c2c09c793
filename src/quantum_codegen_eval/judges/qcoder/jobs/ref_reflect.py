"""The reflection about |0...0> of the QCoder reference solutions (QPC003), after ``ref_lib``
in a program."""

import math

from qiskit.circuit.library.standard_gates import PhaseGate

from .ref_lib import _ctrl


def reflect0(qc, qs):
    # I - 2|0><0| (= -(2|0><0| - I): the same up to global phase)
    for q in qs:
        qc.x(q)
    _ctrl(qc, PhaseGate(math.pi), qs[:-1], [qs[-1]])
    for q in qs:
        qc.x(q)
