"""The reference solution of QPC003_B8."""

import math

from qiskit import QuantumCircuit

from ...jobs.ref_reflect import reflect0


def solve(n, o):
    qc = QuantumCircuit(n + 1)
    theta = math.asin(1 / math.sqrt(2 ** n))
    k = max(range(0, 40), key=lambda k: math.sin((2 * k + 1) * theta) ** 2)
    qc.x(n)
    qc.h(n)
    qc.h(range(n))
    for _ in range(k):
        qc.compose(o, inplace=True)
        qc.h(range(n))
        reflect0(qc, list(range(n)))
        qc.h(range(n))
    return qc
