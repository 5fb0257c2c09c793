"""QCoder specs, contest QPC001 (see ``specs.base``)."""

from __future__ import annotations

import numpy as np

from .base import Spec, mapped, program, register, vec


def _nl_cases(rng, n_small, n_max, per=2):
    cases = [{"n": n, "L": L} for n in range(1, n_small + 1) for L in range(1, 2 ** n + 1)]
    for n in range(n_small + 1, n_max + 1):
        cases += [{"n": n, "L": 1}, {"n": n, "L": 2 ** n}]
        cases += [{"n": n, "L": rng.randint(2, 2 ** n - 1)} for _ in range(per)]
    return cases


def _uniform_pred(threshold: float):
    def pred(p, out):
        L = p["L"]
        pr = np.abs(out[:L]) ** 2
        total = float(pr.sum())
        equal = float(np.ptp(pr)) <= 1e-6 * max(float(pr.max()), 1e-300)
        ok = equal and total > threshold + 1e-9
        msg = "" if ok else (f"|a_0|..|a_{L - 1}| are not equal (spread {np.ptp(pr):.2e})"
                             if not equal else f"probability of 0..{L - 1} is {total:.6f}, "
                             f"not > {threshold}")
        return ok, total, msg
    return pred


register(Spec(
    "QPC001_A1", (), lambda rng: [{}], program("qpc001.a1"),
    (program("qpc001.a1_wrong"),),
    nq=lambda p: 1, target=lambda p: vec(1, {0: 1, 1: 1})))

register(Spec(
    "QPC001_A2", ("n",), lambda rng: [{"n": n} for n in range(1, 11)],
    program("qpc001.a2"),
    (program("qpc001.a2_wrong"),),
    nq=lambda p: p["n"], target=lambda p: np.full(2 ** p["n"], 2 ** (-p["n"] / 2), complex)))

register(Spec(
    "QPC001_A3", (), lambda rng: [{}],
    program("qpc001.a3"),
    (program("qpc001.a3_wrong"),),
    nq=lambda p: 2, target=lambda p: vec(2, {0: 1, 3: 1})))

def _a4_pred(p, out):
    mags = np.abs(out) ** 2
    ok = mags[3] <= 1e-6 and min(mags[:3]) >= 1e-6
    return ok, float(min(mags[:3])), "" if ok else (
        f"amplitudes |a0|^2, |a1|^2, |a2|^2, |a3|^2 = {np.round(mags, 6).tolist()}: "
        "a0, a1, a2 must be non-zero and |11> absent")


register(Spec(
    "QPC001_A4", (), lambda rng: [{}], program("qpc001.a4"),
    (program("qpc001.a4_wrong"),),
    nq=lambda p: 2, predicate=_a4_pred,
    notes="'non-zero' read as |a_i|^2 >= 1e-6; |11> must have |a_3|^2 <= 1e-6."))

register(Spec(
    "QPC001_A5", (), lambda rng: [{}], program("qpc001.a4"),
    (program("qpc001.a3_wrong"),),
    nq=lambda p: 2, target=lambda p: vec(2, {0: 1, 1: 1, 2: 1})))

register(Spec(
    "QPC001_B1", (), lambda rng: [{}],
    program("qpc001.b1"),
    (program("qpc001.b1_wrong"),),
    mode="unitary", nq=lambda p: 2, target=lambda p, cols: mapped(2, cols, lambda i: (i ^ ((i & 1) << 1), 1))))


def _parity_map(n):
    return lambda i: (i ^ ((bin(i & (2 ** n - 1)).count("1") & 1) << n), 1)


register(Spec(
    "QPC001_B2", ("n",), lambda rng: [{"n": n} for n in range(1, 11)],
    program("qpc001.b2"),
    (program("qpc001.b2_wrong"),),
    mode="unitary", nq=lambda p: p["n"] + 1,
    target=lambda p, cols: mapped(p["n"] + 1, cols, _parity_map(p["n"]))))


def _flip_below(p, cols):
    return mapped(p["n"], cols, lambda i: (i, -1 if i < p["L"] else 1))


register(Spec(
    "QPC001_B3", ("n", "L"), lambda rng: _nl_cases(rng, 3, 5, per=3), program("qpc001.b3"),
    (program("qpc001.b3_wrong"),), mode="unitary", nq=lambda p: p["n"], target=_flip_below))

register(Spec(
    "QPC001_B4", ("n", "L"), lambda rng: _nl_cases(rng, 3, 10), program("qpc001.b3"),
    (program("qpc001.b3_wrong"),), mode="unitary", nq=lambda p: p["n"], target=_flip_below))

register(Spec(
    "QPC001_C1", ("n", "L"), lambda rng: _nl_cases(rng, 3, 10),
    program("qpc001.c1"),
    (program("qpc001.c1_wrong"),),
    nq=lambda p: p["n"], predicate=_uniform_pred(0.5),
    notes="|a_0| = ... = |a_{L-1}| checked as a spread of |a_i|^2 <= 1e-6 (relative)."))

register(Spec(
    "QPC001_C2", ("n", "L"), lambda rng: _nl_cases(rng, 3, 10), program("qpc001.c2"),
    (program("qpc001.c1"),),
    nq=lambda p: p["n"], predicate=_uniform_pred(1 - 5e-3)))
