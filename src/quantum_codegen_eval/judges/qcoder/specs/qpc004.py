"""QCoder specs, contest QPC004 (see ``specs.base``)."""

from __future__ import annotations

import math
from math import gcd

import numpy as np

from .base import REF_LIB, Spec, mapped, register, vec

H = "from qiskit import QuantumCircuit\n"

register(Spec("QPC004_A1", (), lambda rng: [{}], H + "def solve():\n    qc = QuantumCircuit(1)\n    qc.x(0)\n    return qc\n",
              (H + "def solve():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    return qc\n",),
              nq=lambda p: 1, target=lambda p: vec(1, {1: 1})))

_SWAP3 = H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.cx(0, 1)\n    qc.cx(1, 0)\n    qc.cx(0, 1)\n    return qc\n"
register(Spec(
    "QPC004_A2", (), lambda rng: [{}], _SWAP3,
    (H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.cx(1, 0)\n    qc.cx(0, 1)\n    return qc\n",),
    mode="unitary", nq=lambda p: 2, target=lambda p, cols: mapped(2, cols, lambda i: (((i & 1) << 1) | (i >> 1), 1)),
    extra={"uge": H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.swap(0, 1)\n    return qc\n"}))

_ROT = H + """

def _swap(qc, a, b):
    qc.cx(a, b)
    qc.cx(b, a)
    qc.cx(a, b)


def _reverse(qc, qs):
    for i in range(len(qs) // 2):
        _swap(qc, qs[i], qs[len(qs) - 1 - i])


def solve(n):
    qc = QuantumCircuit(n)
    _reverse(qc, list(range(n)))
    _reverse(qc, list(range(1, n)))
    return qc
"""
_ROT_WRONG = _ROT.replace("    _reverse(qc, list(range(n)))\n    _reverse(qc, list(range(1, n)))",
                          "    _reverse(qc, list(range(1, n)))\n    _reverse(qc, list(range(n)))")


def _rot_left(n):
    return lambda i: (((i << 1) & (2 ** n - 1)) | (i >> (n - 1)), 1)


register(Spec("QPC004_A3", ("n",), lambda rng: [{"n": n} for n in range(2, 11)], _ROT, (_ROT_WRONG,),
              mode="unitary", nq=lambda p: p["n"],
              target=lambda p, cols: mapped(p["n"], cols, _rot_left(p["n"])),
              extra={"uge": H + "def solve(n):\n    qc = QuantumCircuit(n)\n    for i in reversed(range(n - 1)):\n"
                            "        qc.swap(i, i + 1)\n    return qc\n"}))
register(Spec("QPC004_A4", ("n",), lambda rng: [{"n": n} for n in range(2, 11)], _ROT, (_ROT_WRONG,),
              mode="unitary", nq=lambda p: p["n"], columns=lambda p: list(range(2 ** (p["n"] - 1))),
              target=lambda p, cols: mapped(p["n"], cols, _rot_left(p["n"])),
              notes="Only inputs with x_{n-1} = 0 are tested."))

_DEC = H + """

def solve(n):
    qc = QuantumCircuit(n)
    for i in reversed(range(1, n)):
        qc.mcx(list(range(i)), i, ctrl_state=0)
    qc.x(0)
    return qc
"""
register(Spec("QPC004_A5", ("n",), lambda rng: [{"n": n} for n in range(2, 11)], _DEC,
              (_DEC.replace(", ctrl_state=0", ""),), mode="unitary", nq=lambda p: p["n"],
              target=lambda p, cols: mapped(p["n"], cols, lambda i: ((i - 1) % 2 ** p["n"], 1))))

_A6_GATES = """    qc.u(1.1071487177940902, -1.5707963267948948, 0.0, {a})
    qc.u(1.5707963267948986, 0.0, 0.7853981633974496, {b})
    qc.cx({a}, {b})
    qc.u(3.141592653589793, -3.141592653589793, -1.5707963267948966, {a})
    qc.u(1.738244406014586, 2.134738968155525, -2.134738968155525, {b})
    qc.cx({a}, {b})
    qc.u(1.1071487177940909, 0.0, 0.0, {a})
    qc.u(0.7853981633974483, -1.5707963267948983, 1.5707963267948966, {b})
"""
_S3 = 1 / math.sqrt(3)
_A6_COLS = np.array([[1, 0, 1, -1], [1, 1, 0, 1]], complex).T * _S3  # columns for |00>, |10>

register(Spec("QPC004_A6", (), lambda rng: [{}],
              H + "def solve():\n    qc = QuantumCircuit(2)\n" + _A6_GATES.format(a=0, b=1) + "    return qc\n",
              (H + "def solve():\n    qc = QuantumCircuit(2)\n" + _A6_GATES.format(a=1, b=0) + "    return qc\n",),
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


_A7_REF = H + "def solve(n):\n    qc = QuantumCircuit(2 * n)\n    for i in range(n):\n" + \
    "\n".join("    " + ln for ln in _A6_GATES.format(a="i", b="n + i").splitlines()) + "\n    return qc\n"
register(Spec("QPC004_A7", ("n",), lambda rng: [{"n": n} for n in range(1, 6)], _A7_REF,
              (H + "def solve(n):\n    qc = QuantumCircuit(2 * n)\n    for i in range(n):\n" +
               "\n".join("    " + ln for ln in _A6_GATES.format(a="n + i", b="i").splitlines()) +
               "\n    return qc\n",), mode="unitary", nq=lambda p: 2 * p["n"],
              columns=lambda p: list(range(2 ** p["n"])), target=_a7_target, mask=_a7_mask,
              notes="Inputs |S>|0>; only outputs whose second register is 0 or 2^n - 1 are compared "
                    "(the b_{S,i} are free). It is QPC004_A6 on each qubit pair (i, n + i)."))

register(Spec("QPC004_B1", ("n",), lambda rng: [{"n": n} for n in range(1, 11)],
              H + "def solve(n):\n    qc = QuantumCircuit(n)\n    qc.h(range(n))\n    return qc\n",
              (H + "def solve(n):\n    qc = QuantumCircuit(n)\n    qc.h(0)\n    return qc\n",),
              nq=lambda p: p["n"], target=lambda p: np.full(2 ** p["n"], 2 ** (-p["n"] / 2), complex)))

_B2 = H + """import math


def solve(n, a):
    qc = QuantumCircuit(n + 1)
    for j in range(n):
        qc.cp(2 * math.pi * a * 2 ** j / 2 ** n, j, n)
    return qc
"""
register(Spec("QPC004_B2", ("n", "a"), lambda rng: [{"n": n, "a": rng.randint(1, 10)} for n in range(1, 11)]
              + [{"n": 3, "a": 8}, {"n": 2, "a": 1}], _B2,
              (_B2.replace("qc.cp(2 * math.pi * a * 2 ** j / 2 ** n, j, n)", "qc.p(2 * math.pi * a * 2 ** j / 2 ** n, j)"),),
              mode="unitary", nq=lambda p: p["n"] + 1,
              target=lambda p, cols: mapped(p["n"] + 1, cols, lambda i: (
                  i, np.exp(2j * np.pi * (i >> p["n"]) * p["a"] * (i % 2 ** p["n"]) / 2 ** p["n"])))))

_B3 = REF_LIB + "\n\ndef solve(n, a):\n    qc = QuantumCircuit(n + 1)\n    add_const(qc, list(range(n)), [(a, [n])])\n    return qc\n"
register(Spec("QPC004_B3", ("n", "a"), lambda rng: [{"n": n, "a": rng.randrange(2 ** n)} for n in range(1, 11)]
              + [{"n": 3, "a": 0}, {"n": 3, "a": 7}], _B3, (_B3.replace("[(a, [n])]", "[(a, [])]"),),
              mode="unitary", nq=lambda p: p["n"] + 1,
              target=lambda p, cols: mapped(p["n"] + 1, cols, lambda i: (
                  ((i % 2 ** p["n"] + (i >> p["n"]) * p["a"]) % 2 ** p["n"]) + (i >> p["n"] << p["n"]), 1))))


def _b4_cases(rng):
    out = []
    for n in list(range(1, 11)) + [1, 2]:
        N = 2 ** n
        out.append({"n": n, "s": rng.randrange(N), "t": rng.randrange(N + 1, 2 * N)})
    return out


_B4 = REF_LIB + """

def solve(n, s, t):
    qc = QuantumCircuit(n + 1)
    add_const(qc, list(range(n)), [(-s, []), (s - (t - 2 ** n), [n])])
    return qc
"""
register(Spec("QPC004_B4", ("n", "s", "t"), _b4_cases, _B4,
              (_B4.replace("[(-s, []), (s - (t - 2 ** n), [n])]", "[(-s, [])]"),), mode="unitary",
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


_B5 = REF_LIB + "\n\ndef solve(n, a, L):\n    qc = QuantumCircuit(n + 1)\n    mod_add(qc, list(range(n)), n, a, L)\n    return qc\n"
register(Spec("QPC004_B5", ("n", "a", "L"), _b5_cases, _B5,
              (REF_LIB + "\n\ndef solve(n, a, L):\n    qc = QuantumCircuit(n + 1)\n"
               "    add_const(qc, list(range(n + 1)), [(a, [])])\n    return qc\n",),
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
              "def solve(n: int, a: int, L: int) -> list[int]:\n    result = []\n    x = a % L\n"
              "    for _ in range(n):\n        result.append(x)\n        x = x * x % L\n    return result\n",
              ("def solve(n: int, a: int, L: int) -> list[int]:\n    return [pow(a, k, L) for k in range(n)]\n",),
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


register(Spec("QPC004_C2", ("a", "L"), _c2_cases, "def solve(a: int, L: int) -> int:\n    return pow(a, -1, L)\n",
              ("def solve(a: int, L: int) -> int:\n    return pow(a, L - 2, L)\n",), mode="classical",
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


_C3 = REF_LIB + """

def solve(n, a, L):
    qc = QuantumCircuit(2 * n + 1)
    mod_mul_add(qc, list(range(n)), list(range(n, 2 * n)), 2 * n, a, L)
    return qc
"""
register(Spec("QPC004_C3", ("n", "a", "L"), _c3_cases, _C3,
              (_C3.replace("2 * n, a, L)", "2 * n, (L - a) % L, L)"),), mode="unitary",
              nq=lambda p: 2 * p["n"] + 1,
              columns=lambda p: [x + 2 ** p["n"] * y for x in range(p["L"]) for y in range(p["L"])],
              target=lambda p, cols: mapped(2 * p["n"] + 1, cols, lambda i: (
                  (i % 2 ** p["n"]) + 2 ** p["n"] * (((i >> p["n"]) + p["a"] * (i % 2 ** p["n"])) % p["L"]), 1)),
              extra={"max_columns": 48},
              notes="Inputs 0 <= x, y < L (a seeded sample of at most 48 of them when L^2 is larger)."))

_C4 = REF_LIB + """

def solve(n, a, L):
    qc = QuantumCircuit(2 * n + 1)
    mod_mul(qc, list(range(n)), list(range(n, 2 * n)), 2 * n, a, L)
    return qc
"""
register(Spec("QPC004_C4", ("n", "a", "L"), _mod_cases, _C4,
              (_C4.replace("    mod_mul(qc", "    mod_mul_add(qc"),), mode="unitary", nq=lambda p: 2 * p["n"] + 1,
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


_C5 = REF_LIB + """

def solve(n, m, a, L):
    qc = QuantumCircuit(n + 2 * m + 1)
    xs = list(range(n, n + m))
    low = list(range(n + m, n + 2 * m))
    top = n + 2 * m
    qc.h(range(n))
    qc.x(xs[0])
    for j in range(n):
        mod_mul(qc, xs, low, top, pow(a, 2 ** j, L), L, [j])
    return qc
"""
register(Spec("QPC004_C5", ("n", "m", "a", "L"), _c5_cases, _C5, (_C5.replace("    qc.x(xs[0])\n", ""),),
              nq=lambda p: p["n"] + 2 * p["m"] + 1, target=_c5_target,
              notes="Tested on (n, m) in {(1,1), (1,2), (2,2), (3,2), (2,3), (3,3), (5,3), (2,5)}: "
                    "the reference has ~n*m^3*40 gates and larger cases exceed the time budget."))
