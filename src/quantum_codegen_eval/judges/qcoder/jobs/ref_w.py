"""The W state of the QCoder reference solutions (QPC003), after ``ref_lib`` in a program."""

import math


def _w(qc, qs):
    """Excitation on qs[0] -> spread uniformly over qs (log depth)."""
    k = len(qs)
    if k == 1:
        return
    left, right = qs[: k - k // 2], qs[k - k // 2:]
    theta = 2 * math.acos(math.sqrt(len(left) / k))
    qc.cry(theta, left[0], right[0])
    qc.cx(right[0], left[0])
    _w(qc, left)
    _w(qc, right)


def w_state(qc, qs):
    qc.x(qs[0])
    _w(qc, qs)
