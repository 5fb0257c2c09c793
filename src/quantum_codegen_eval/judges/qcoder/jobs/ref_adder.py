"""The Fourier-space adders of the QCoder reference solutions (QPC002), after ``ref_lib`` in a
program."""

import math

from qiskit import QuantumCircuit

from .ref_lib import qft_noswap


def _phases(qc, n, m, S, sign=1):
    # Fourier bit j of y sits on qubit n + m - 1 - j (QFT without the final reversal)
    for t in range(max(n, m)):
        for k in range(n):
            j = (k + t) % m
            if t >= m and k < n:
                pass
            ang = (sign * 2 * math.pi * S[k] * 2 ** j / 2 ** m) % (2 * math.pi)
            if t < m and ang:
                qc.cp(ang, k, n + m - 1 - j)


def _qinv(qc, n, m):
    t = QuantumCircuit(n + m)
    qft_noswap(t, list(range(n, n + m)))
    qc.compose(t.inverse(), inplace=True)


def _q(qc, n, m):
    qft_noswap(qc, list(range(n, n + m)))
