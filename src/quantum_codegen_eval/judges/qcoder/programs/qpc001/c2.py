"""The reference solution of QPC001_C2."""

import math

from qiskit import QuantumCircuit
from qiskit.circuit.library.standard_gates import HGate, RYGate

from ...jobs.ref_lib import _ctrl


def _prep(qc, k, L, ctrl):
    if L == 2 ** k:
        for q in range(k):
            _ctrl(qc, HGate(), [c for c, _ in ctrl], [q], sum(b << i for i, (_, b) in enumerate(ctrl)) if ctrl else None)
        return
    half = 2 ** (k - 1)
    if L <= half:
        _prep(qc, k - 1, L, ctrl)
        return
    theta = 2 * math.asin(math.sqrt((L - half) / L))
    _ctrl(qc, RYGate(theta), [c for c, _ in ctrl], [k - 1], sum(b << i for i, (_, b) in enumerate(ctrl)) if ctrl else None)
    _prep(qc, k - 1, half, ctrl + [(k - 1, 0)])
    _prep(qc, k - 1, L - half, ctrl + [(k - 1, 1)])


def solve(n: int, L: int) -> QuantumCircuit:
    qc = QuantumCircuit(n)
    _prep(qc, n, L, [])
    return qc
