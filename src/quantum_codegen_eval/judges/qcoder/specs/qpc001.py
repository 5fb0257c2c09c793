"""QCoder specs, contest QPC001 (see ``specs.base``)."""

from __future__ import annotations

import numpy as np

from .base import REF_LIB, Spec, mapped, register, vec

H = "from qiskit import QuantumCircuit\n"
HR = "from qiskit import QuantumCircuit, QuantumRegister\n"


def _dyadic_flip_ref(name: str = "solve") -> str:
    return REF_LIB + f'''
from qiskit.circuit.library.standard_gates import PhaseGate


def {name}(n: int, L: int) -> QuantumCircuit:
    qc = QuantumCircuit(n)
    # [0, L) is a union of blocks: higher bits equal to L's, bit j = 0 where L has bit j set
    for j in reversed(range(n)):  # (L = 2**n flips everything: a global phase)
        if not (L >> j) & 1:
            continue
        controls = list(range(j + 1, n))
        qc.x(j)
        _ctrl(qc, PhaseGate(math.pi), controls, [j], ctrl_state=(L >> (j + 1)) if controls else None)
        qc.x(j)
    return qc
'''


def _uniform_ref(name: str = "solve") -> str:
    return REF_LIB + f'''
from qiskit.circuit.library.standard_gates import HGate, RYGate

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


def {name}(n: int, L: int) -> QuantumCircuit:
    qc = QuantumCircuit(n)
    _prep(qc, n, L, [])
    return qc
'''


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
    "QPC001_A1", (), lambda rng: [{}], H + "def solve():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    return qc\n",
    (H + "def solve():\n    qc = QuantumCircuit(1)\n    qc.x(0)\n    return qc\n",),
    nq=lambda p: 1, target=lambda p: vec(1, {0: 1, 1: 1})))

register(Spec(
    "QPC001_A2", ("n",), lambda rng: [{"n": n} for n in range(1, 11)],
    H + "def solve(n):\n    qc = QuantumCircuit(n)\n    qc.h(range(n))\n    return qc\n",
    (H + "def solve(n):\n    qc = QuantumCircuit(n)\n    for q in range(n - 1):\n        qc.h(q)\n    return qc\n",),
    nq=lambda p: p["n"], target=lambda p: np.full(2 ** p["n"], 2 ** (-p["n"] / 2), complex)))

register(Spec(
    "QPC001_A3", (), lambda rng: [{}],
    H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    qc.cx(0, 1)\n    return qc\n",
    (H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    qc.h(1)\n    return qc\n",),
    nq=lambda p: 2, target=lambda p: vec(2, {0: 1, 3: 1})))

_A5_REF = H + """import math


def solve():
    qc = QuantumCircuit(2)
    qc.ry(2 * math.asin(math.sqrt(1 / 3)), 1)
    qc.ch(1, 0, ctrl_state=0)
    return qc
"""


def _a4_pred(p, out):
    mags = np.abs(out) ** 2
    ok = mags[3] <= 1e-6 and min(mags[:3]) >= 1e-6
    return ok, float(min(mags[:3])), "" if ok else (
        f"amplitudes |a0|^2, |a1|^2, |a2|^2, |a3|^2 = {np.round(mags, 6).tolist()}: "
        "a0, a1, a2 must be non-zero and |11> absent")


register(Spec(
    "QPC001_A4", (), lambda rng: [{}], _A5_REF,
    (H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    return qc\n",),
    nq=lambda p: 2, predicate=_a4_pred,
    notes="'non-zero' read as |a_i|^2 >= 1e-6; |11> must have |a_3|^2 <= 1e-6."))

register(Spec(
    "QPC001_A5", (), lambda rng: [{}], _A5_REF,
    (H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    qc.h(1)\n    return qc\n",),
    nq=lambda p: 2, target=lambda p: vec(2, {0: 1, 1: 1, 2: 1})))

register(Spec(
    "QPC001_B1", (), lambda rng: [{}],
    HR + "def solve():\n    x, y = QuantumRegister(1), QuantumRegister(1)\n    qc = QuantumCircuit(x, y)\n"
    "    qc.cx(x[0], y[0])\n    return qc\n",
    (H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.cx(1, 0)\n    return qc\n",),
    mode="unitary", nq=lambda p: 2, target=lambda p, cols: mapped(2, cols, lambda i: (i ^ ((i & 1) << 1), 1))))


def _parity_map(n):
    return lambda i: (i ^ ((bin(i & (2 ** n - 1)).count("1") & 1) << n), 1)


register(Spec(
    "QPC001_B2", ("n",), lambda rng: [{"n": n} for n in range(1, 11)],
    HR + "def solve(n):\n    x, y = QuantumRegister(n), QuantumRegister(1)\n    qc = QuantumCircuit(x, y)\n"
    "    for q in x:\n        qc.cx(q, y[0])\n    return qc\n",
    (H + "def solve(n):\n    qc = QuantumCircuit(n + 1)\n    qc.cx(0, n)\n    return qc\n",),
    mode="unitary", nq=lambda p: p["n"] + 1,
    target=lambda p, cols: mapped(p["n"] + 1, cols, _parity_map(p["n"]))))


def _flip_below(p, cols):
    return mapped(p["n"], cols, lambda i: (i, -1 if i < p["L"] else 1))


_WRONG_FLIP = _dyadic_flip_ref("_right") + "\n\ndef solve(n, L):\n    return _right(n, L - 1)\n"

register(Spec(
    "QPC001_B3", ("n", "L"), lambda rng: _nl_cases(rng, 3, 5, per=3), _dyadic_flip_ref(),
    (_WRONG_FLIP,), mode="unitary", nq=lambda p: p["n"], target=_flip_below))

register(Spec(
    "QPC001_B4", ("n", "L"), lambda rng: _nl_cases(rng, 3, 10), _dyadic_flip_ref(),
    (_WRONG_FLIP,), mode="unitary", nq=lambda p: p["n"], target=_flip_below))

register(Spec(
    "QPC001_C1", ("n", "L"), lambda rng: _nl_cases(rng, 3, 10),
    H + "import math\n\n\ndef solve(n, L):\n    qc = QuantumCircuit(n)\n"
    "    k = math.ceil(math.log2(L)) if L > 1 else 0\n    for q in range(k):\n        qc.h(q)\n    return qc\n",
    (H + "def solve(n, L):\n    qc = QuantumCircuit(n)\n    qc.h(range(n))\n    return qc\n",),
    nq=lambda p: p["n"], predicate=_uniform_pred(0.5),
    notes="|a_0| = ... = |a_{L-1}| checked as a spread of |a_i|^2 <= 1e-6 (relative)."))

register(Spec(
    "QPC001_C2", ("n", "L"), lambda rng: _nl_cases(rng, 3, 10), _uniform_ref(),
    (H + "import math\n\n\ndef solve(n, L):\n    qc = QuantumCircuit(n)\n"
     "    k = math.ceil(math.log2(L)) if L > 1 else 0\n    for q in range(k):\n        qc.h(q)\n    return qc\n",),
    nq=lambda p: p["n"], predicate=_uniform_pred(1 - 5e-3)))
