"""Controlled rotations of the QCoder reference solutions of QPC005_B2/B3 (a program's first
part)."""

import math


def _c0(qc, n, gate, target):
    # gate on target when the c register (qubits 2..n) is 0
    qc.append(gate.control(n - 1, ctrl_state=0, annotated=False), list(range(2, n + 1)) + [target])


def _rot(qc, n, k, target):
    for j in range(n - 1):
        ang = (2 * math.pi * 2 ** j * k / 2 ** (n - 1)) % (4 * math.pi)
        if ang:
            qc.crz(ang, 2 + j, target)
