"""The reference solution of QPC003_Ex2."""

import math

from qiskit import QuantumCircuit
from qiskit.circuit.library.standard_gates import PhaseGate

from ...jobs.ref_lib import _ctrl
from ...jobs.ref_w import w_state


def _s0(qc, qs, phi):
    for q in qs:
        qc.x(q)
    _ctrl(qc, PhaseGate(phi), qs[:-1], [qs[-1]])
    for q in qs:
        qc.x(q)


def solve(n, o):
    # exact Grover (Long 2001) over the n one-hot states, with phase oracles built from o
    qc = QuantumCircuit(n + 1)
    xs = list(range(n))
    w = QuantumCircuit(n + 1)
    w_state(w, xs)
    theta = math.asin(1 / math.sqrt(n))
    k = max(1, math.ceil((math.pi / 2 - theta) / (2 * theta)))
    phi = 2 * math.asin(math.sin(math.pi / (4 * k + 2)) / math.sin(theta))
    qc.compose(w, inplace=True)
    for _ in range(k):
        qc.compose(o, inplace=True)
        qc.p(phi, n)
        qc.compose(o, inplace=True)
        qc.compose(w.inverse(), inplace=True)
        _s0(qc, xs, phi)
        qc.compose(w, inplace=True)
    return qc
