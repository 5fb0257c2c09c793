"""The W state of ``jobs/ref_w`` with one mistake: every split rotates by pi/4 instead of
acos(sqrt(len(left) / k)), so the amplitudes are unequal (the wrong solutions of A3 to A6)."""

import math


def _w(qc, qs):
    """Excitation on qs[0] -> spread uniformly over qs (log depth)."""
    k = len(qs)
    if k == 1:
        return
    left, right = qs[: k - k // 2], qs[k - k // 2:]
    theta = 2 * math.pi / 4
    qc.cry(theta, left[0], right[0])
    qc.cx(right[0], left[0])
    _w(qc, left)
    _w(qc, right)


def w_state(qc, qs):
    qc.x(qs[0])
    _w(qc, qs)
