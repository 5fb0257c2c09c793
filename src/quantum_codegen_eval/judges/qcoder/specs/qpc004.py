"""QCoder specs, contest QPC004 (see ``specs.base``)."""

from __future__ import annotations

import math
from math import gcd

import numpy as np

from .base import Spec, mapped, program, register, vec

register(Spec("QPC004_A1", (), lambda rng: [{}], program("qpc001.a1_wrong"),
              (program("qpc001.a1"),),
              nq=lambda p: 1, target=lambda p: vec(1, {1: 1})))

register(Spec(
    "QPC004_A2", (), lambda rng: [{}], program("qpc002.b3"),
    (program("qpc004.a2_wrong"),),
    mode="unitary", nq=lambda p: 2, target=lambda p, cols: mapped(2, cols, lambda i: (((i & 1) << 1) | (i >> 1), 1)),
    extra={"uge": program("qpc002.b3_uge")}))

def _rot_left(n):
    return lambda i: (((i << 1) & (2 ** n - 1)) | (i >> (n - 1)), 1)


register(Spec("QPC004_A3", ("n",), lambda rng: [{"n": n} for n in range(2, 11)], program("qpc004.a3"), (program("qpc004.a3_wrong"),),
              mode="unitary", nq=lambda p: p["n"],
              target=lambda p, cols: mapped(p["n"], cols, _rot_left(p["n"])),
              extra={"uge": program("qpc004.a3_uge")}))
register(Spec("QPC004_A4", ("n",), lambda rng: [{"n": n} for n in range(2, 11)], program("qpc004.a3"), (program("qpc004.a3_wrong"),),
              mode="unitary", nq=lambda p: p["n"], columns=lambda p: list(range(2 ** (p["n"] - 1))),
              target=lambda p, cols: mapped(p["n"], cols, _rot_left(p["n"])),
              notes="Only inputs with x_{n-1} = 0 are tested."))

register(Spec("QPC004_A5", ("n",), lambda rng: [{"n": n} for n in range(2, 11)], program("qpc004.a5"),
              (program("qpc004.a5_wrong"),), mode="unitary", nq=lambda p: p["n"],
              target=lambda p, cols: mapped(p["n"], cols, lambda i: ((i - 1) % 2 ** p["n"], 1))))

_S3 = 1 / math.sqrt(3)
_A6_COLS = np.array([[1, 0, 1, -1], [1, 1, 0, 1]], complex).T * _S3  # columns for |00>, |10>

register(Spec("QPC004_A6", (), lambda rng: [{}],
              program("qpc004.a6"),
              (program("qpc004.a6_wrong"),),
              mode="unitary", nq=lambda p: 2, columns=lambda p: [0, 1],
              target=lambda p, cols: _A6_COLS[:, [c for c in cols]],
              notes="Only |00> and |10> are specified; the reference circuit was synthesised once "
                    "from a completion of the two columns (2 CX, depth 5)."))


def _a7_target(p, cols):
    n = p["n"]
    out = np.zeros((2 ** (2 * n), len(cols)), complex)
    for c, S in enumerate(cols):
        amp = np.ones(1, complex)
        # build the product over pairs (i, n+i), pair i contributes bits a_i (qubit i), b_i (qubit n+i)
        full = np.zeros(2 ** (2 * n), complex)
        for idx in range(2 ** (2 * n)):
            a, b = idx % 2 ** n, idx >> n
            amp = 1.0
            for i in range(n):
                amp *= _A6_COLS[((a >> i) & 1) + 2 * ((b >> i) & 1), (S >> i) & 1]
                if amp == 0:
                    break
            full[idx] = amp
        out[:, c] = full
    return out


def _a7_mask(p, nq):
    n = p["n"]
    hi = np.arange(2 ** nq) >> n
    return (hi == 0) | (hi == 2 ** n - 1)


register(Spec("QPC004_A7", ("n",), lambda rng: [{"n": n} for n in range(1, 6)], program("qpc004.a7"),
              (program("qpc004.a7_wrong"),), mode="unitary", nq=lambda p: 2 * p["n"],
              columns=lambda p: list(range(2 ** p["n"])), target=_a7_target, mask=_a7_mask,
              notes="Inputs |S>|0>; only outputs whose second register is 0 or 2^n - 1 are compared "
                    "(the b_{S,i} are free). It is QPC004_A6 on each qubit pair (i, n + i)."))

register(Spec("QPC004_B1", ("n",), lambda rng: [{"n": n} for n in range(1, 11)],
              program("qpc001.a2"),
              (program("qpc004.b1_wrong"),),
              nq=lambda p: p["n"], target=lambda p: np.full(2 ** p["n"], 2 ** (-p["n"] / 2), complex)))

register(Spec("QPC004_B2", ("n", "a"), lambda rng: [{"n": n, "a": rng.randint(1, 10)} for n in range(1, 11)]
              + [{"n": 3, "a": 8}, {"n": 2, "a": 1}], program("qpc004.b2"),
              (program("qpc004.b2_wrong"),),
              mode="unitary", nq=lambda p: p["n"] + 1,
              target=lambda p, cols: mapped(p["n"] + 1, cols, lambda i: (
                  i, np.exp(2j * np.pi * (i >> p["n"]) * p["a"] * (i % 2 ** p["n"]) / 2 ** p["n"])))))

register(Spec("QPC004_B3", ("n", "a"), lambda rng: [{"n": n, "a": rng.randrange(2 ** n)} for n in range(1, 11)]
              + [{"n": 3, "a": 0}, {"n": 3, "a": 7}], program("qpc004.b3"), (program("qpc004.b3_wrong"),),
              mode="unitary", nq=lambda p: p["n"] + 1,
              target=lambda p, cols: mapped(p["n"] + 1, cols, lambda i: (
                  ((i % 2 ** p["n"] + (i >> p["n"]) * p["a"]) % 2 ** p["n"]) + (i >> p["n"] << p["n"]), 1))))


def _b4_cases(rng):
    out = []
    for n in list(range(1, 11)) + [1, 2]:
        N = 2 ** n
        out.append({"n": n, "s": rng.randrange(N), "t": rng.randrange(N + 1, 2 * N)})
    return out


register(Spec("QPC004_B4", ("n", "s", "t"), _b4_cases, program("qpc004.b4"),
              (program("qpc004.b4_wrong"),), mode="unitary",
              nq=lambda p: p["n"] + 1, columns=lambda p: list(range(p["s"], p["t"])),
              target=lambda p, cols: mapped(p["n"] + 1, cols, lambda k: (
                  k - p["s"] if k < 2 ** p["n"] else k + 2 ** (p["n"] + 1) - p["t"], 1)),
              notes="Only the inputs s <= k < t named by the statement are tested."))


def _b5_cases(rng):
    out = [{"n": 1, "a": 0, "L": 1}, {"n": 2, "a": 3, "L": 4}, {"n": 3, "a": 0, "L": 5}]
    for n in range(1, 11):
        L = rng.randint(1, 2 ** n)
        out.append({"n": n, "a": rng.randrange(L), "L": L})
    return out


register(Spec("QPC004_B5", ("n", "a", "L"), _b5_cases, program("qpc004.b5"),
              (program("qpc004.b5_wrong"),),
              mode="unitary", nq=lambda p: p["n"] + 1, columns=lambda p: list(range(p["L"])),
              target=lambda p, cols: mapped(p["n"] + 1, cols, lambda k: ((k + p["a"]) % p["L"], 1)),
              notes="Only inputs 0 <= k < L are tested."))


# ----------------------------------------------------------------- classical (C1, C2)

def _coprime_pair(rng, bits):
    while True:
        L = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
        a = rng.randrange(1, L)
        if gcd(a, L) == 1:
            return a, L


def _c1_cases(rng):
    out = [{"n": 1, "a": 1, "L": 2}, {"n": 5, "a": 3, "L": 7}]
    for n, bits in ((10, 16), (100, 1024), (2000, 1024), (100000, 64)):
        a, L = _coprime_pair(rng, bits)
        out.append({"n": n, "a": a, "L": L})
    a, L = _coprime_pair(rng, 1024)
    out.append({"n": 1, "a": a, "L": L})
    return out


def _c1_check(p, value):
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return False, "the result must be a list of int"
    if len(value) != p["n"]:
        return False, f"the list has {len(value)} elements; expected n = {p['n']}"
    x = p["a"] % p["L"]
    for k, v in enumerate(value):
        if v != x:
            return False, f"element {k} (a^(2^{k}) mod L) is wrong"
        x = x * x % p["L"]
    return True, ""


register(Spec("QPC004_C1", ("n", "a", "L"), _c1_cases,
              program("qpc004.c1"),
              (program("qpc004.c1_wrong"),),
              mode="classical", check=_c1_check))


def _c2_cases(rng):
    out = [{"a": 1, "L": 2}, {"a": 3, "L": 7}, {"a": 4, "L": 9}]
    for bits in (8, 64, 512, 1024, 1024):
        a, L = _coprime_pair(rng, bits)
        out.append({"a": a, "L": L})
    return out


def _c2_check(p, value):
    if not isinstance(value, int) or isinstance(value, bool):
        return False, "the result must be an int"
    ok = (p["a"] * value - 1) % p["L"] == 0
    return ok, "" if ok else "a * result is not 1 mod L"


register(Spec("QPC004_C2", ("a", "L"), _c2_cases, program("qpc004.c2"),
              (program("qpc004.c2_wrong"),), mode="classical",
              check=_c2_check, notes="Any integer x with a*x = 1 (mod L) is accepted."))


# ----------------------------------------------------------------- modular arithmetic (C3, C4, C5)

def _c3_cases(rng):
    out = [{"n": 1, "a": 0, "L": 1}, {"n": 1, "a": 1, "L": 2}, {"n": 2, "a": 2, "L": 3}]
    for n in (2, 3, 4, 5, 5):
        L = rng.randint(2, 2 ** n)
        out.append({"n": n, "a": rng.randrange(L), "L": L})
    return out


def _mod_cases(rng):
    out = [{"n": 1, "a": 1, "L": 2}, {"n": 2, "a": 2, "L": 3}, {"n": 2, "a": 3, "L": 4}]
    for n in (3, 4, 5, 5):
        while True:
            L = rng.randint(2, 2 ** n)
            a = rng.randrange(1, L)
            if gcd(a, L) == 1:
                break
        out.append({"n": n, "a": a, "L": L})
    return out


register(Spec("QPC004_C3", ("n", "a", "L"), _c3_cases, program("qpc004.c3"),
              (program("qpc004.c3_wrong"),), mode="unitary",
              nq=lambda p: 2 * p["n"] + 1,
              columns=lambda p: [x + 2 ** p["n"] * y for x in range(p["L"]) for y in range(p["L"])],
              target=lambda p, cols: mapped(2 * p["n"] + 1, cols, lambda i: (
                  (i % 2 ** p["n"]) + 2 ** p["n"] * (((i >> p["n"]) + p["a"] * (i % 2 ** p["n"])) % p["L"]), 1)),
              extra={"max_columns": 48},
              notes="Inputs 0 <= x, y < L (a seeded sample of at most 48 of them when L^2 is larger)."))

register(Spec("QPC004_C4", ("n", "a", "L"), _mod_cases, program("qpc004.c4"),
              (program("qpc004.c3"),), mode="unitary", nq=lambda p: 2 * p["n"] + 1,
              columns=lambda p: list(range(p["L"])),
              target=lambda p, cols: mapped(2 * p["n"] + 1, cols, lambda x: (p["a"] * x % p["L"], 1)),
              notes="Inputs |x>|0> with 0 <= x < L."))


def _c5_cases(rng):
    out = []
    for n, m in ((1, 1), (1, 2), (2, 2), (3, 2), (2, 3), (3, 3), (5, 3), (2, 5)):
        while True:
            L = rng.randint(2, 2 ** m)
            a = rng.randrange(1, L)
            if gcd(a, L) == 1:
                break
        out.append({"n": n, "m": m, "a": a, "L": L})
    return out


def _c5_target(p):
    n = p["n"]
    v = np.zeros(2 ** (n + 2 * p["m"] + 1), complex)
    for k in range(2 ** n):
        v[k + 2 ** n * pow(p["a"], k, p["L"])] = 2 ** (-n / 2)
    return v


register(Spec("QPC004_C5", ("n", "m", "a", "L"), _c5_cases, program("qpc004.c5"), (program("qpc004.c5_wrong"),),
              nq=lambda p: p["n"] + 2 * p["m"] + 1, target=_c5_target,
              notes="Tested on (n, m) in {(1,1), (1,2), (2,2), (3,2), (2,3), (3,3), (5,3), (2,5)}: "
                    "the reference has ~n*m^3*40 gates and larger cases exceed the time budget."))
