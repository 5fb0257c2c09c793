"""The reference solution of QPC002_Ex."""

import math

from qiskit import QuantumCircuit


def _s0(qc, n, alpha):
    qc.x(range(n))
    if n == 1:
        qc.p(alpha, 0)
    else:
        qc.mcp(alpha, list(range(n - 1)), n - 1)
    qc.x(range(n))


def solve(n, P, U, R):
    # fixed-point amplitude amplification (Yoder, Low, Chuang 2014), delta = 0.1
    delta = 0.1
    L = 1
    while True:
        gamma = 1 / math.cosh(math.acosh(1 / delta) / L)
        if 1 - gamma ** 2 <= P:
            break
        L += 2
    ell = (L - 1) // 2
    s = math.sqrt(1 - gamma ** 2)
    alpha = [2 * math.atan2(1, math.tan(2 * math.pi * j / L) * s) for j in range(1, ell + 1)]
    beta = [-alpha[ell - j] for j in range(1, ell + 1)]
    u = U()
    qc = QuantumCircuit(n)
    qc.compose(u, inplace=True)
    for j in range(ell):
        qc.compose(R(-beta[j]), inplace=True)
        qc.compose(u.inverse(), inplace=True)
        _s0(qc, n, alpha[j])
        qc.compose(u, inplace=True)
    return qc
