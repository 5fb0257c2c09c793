"""QCoder specs, contest QPC003 (see ``specs.base``)."""

from __future__ import annotations

import math

import numpy as np

from .base import Spec, library, mapped, perm_oracle, register, vec

H = "from qiskit import QuantumCircuit\n"


def _w(n):
    return vec(n, {2 ** q: 1 for q in range(n)})


W_LIB = library("ref_lib", "ref_w")
_W_REF = W_LIB + "\n\ndef solve(n):\n    qc = QuantumCircuit(n)\n    w_state(qc, list(range(n)))\n    return qc\n"
_W_WRONG = _W_REF.replace("def solve(n=3)", "def solve(n)").replace("math.acos(math.sqrt(len(left) / k))", "math.pi / 4")

register(Spec(
    "QPC003_A1", (), lambda rng: [{}],
    H + "def solve():\n    qc = QuantumCircuit(1)\n    qc.x(0)\n    qc.s(0)\n    return qc\n",
    (H + "def solve():\n    qc = QuantumCircuit(1)\n    qc.x(0)\n    qc.sdg(0)\n    return qc\n",),
    nq=lambda p: 1, counted=True, target=lambda p: np.array([0, 1j])))

register(Spec(
    "QPC003_A2", (), lambda rng: [{}],
    H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    qc.x(1)\n    qc.cx(0, 1)\n    return qc\n",
    (H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    qc.cx(0, 1)\n    return qc\n",),
    nq=lambda p: 2, target=lambda p: vec(2, {1: 1, 2: 1})))

register(Spec("QPC003_A3", (), lambda rng: [{}], W_LIB + "\n\ndef solve():\n    qc = QuantumCircuit(3)\n"
              "    w_state(qc, [0, 1, 2])\n    return qc\n",
              (W_LIB.replace("math.acos(math.sqrt(len(left) / k))", "math.pi / 4") + "\n\ndef solve():\n    qc = QuantumCircuit(3)\n    w_state(qc, [0, 1, 2])\n    return qc\n",),
              nq=lambda p: 3, target=lambda p: _w(3)))
for _pid in ("QPC003_A4", "QPC003_A5", "QPC003_A6"):
    register(Spec(_pid, ("n",), lambda rng: [{"n": n} for n in range(2, 16)],
                  _W_REF,
                  (_W_WRONG,),
                  nq=lambda p: p["n"], target=lambda p: _w(p["n"])))

register(Spec(
    "QPC003_B1", (), lambda rng: [{}], H + "def solve():\n    qc = QuantumCircuit(1)\n    qc.x(0)\n    return qc\n",
    (H + "import math\n\n\ndef solve():\n    qc = QuantumCircuit(1)\n    qc.rx(math.pi, 0)\n    return qc\n",),
    mode="unitary", nq=lambda p: 1, counted=True, target=lambda p, cols: mapped(1, cols, lambda i: (1 - i, 1))))


# ----------------------------------------------------------------- oracle problems

def _bitflip(p, marked):
    n = p["n"]
    ms = set(marked)
    return {"qcoder_oracle": perm_oracle(n + 1, lambda i: (i ^ (((i % 2 ** n) in ms) << n), 1)),
            "qcoder_oracle_dg": perm_oracle(n + 1, lambda i: (i ^ (((i % 2 ** n) in ms) << n), 1))}


def _f_cases(rng):
    out = []
    for n in list(range(1, 11)) + [2, 3]:
        out.append({"n": n, "_f": [rng.randrange(2) for _ in range(2 ** n)]})
    out.append({"n": 3, "_f": [0] * 8})
    out.append({"n": 3, "_f": [1] * 8})
    return out


_KICK = H + """

def solve(n, o):
    qc = QuantumCircuit(n + 1)
    qc.x(n)
    qc.h(n)
    qc.compose(o, inplace=True)
    qc.h(n)
    qc.x(n)
    return qc
"""
_KICK_WRONG = _KICK.replace("    qc.x(n)\n", "")
for _pid in ("QPC003_B2", "QPC003_Ex1"):
    register(Spec(
        _pid, ("n", "o"), _f_cases, _KICK, (_KICK_WRONG,), mode="unitary",
        nq=lambda p: p["n"] + 1, columns=lambda p: list(range(2 ** p["n"])),
        oracles=lambda p: {"o": {"type": "bitflip", "n": p["n"],
                                 "marked": [x for x, v in enumerate(p["_f"]) if v]}},
        semantics=lambda p: _bitflip(p, [x for x, v in enumerate(p["_f"]) if v]),
        target=lambda p, cols: mapped(p["n"] + 1, cols, lambda x: (x, (-1) ** p["_f"][x])),
        query_gates=("qcoder_oracle", "qcoder_oracle_dg"),
        notes="The statement does not say whether the global phase counts; it is ignored. "
              "Only inputs with y = 0 are tested.",
        extra={"dle": _KICK.replace("    qc.h(n)\n    qc.x(n)\n    return",
                                    "    qc.compose(o, inplace=True)\n    qc.compose(o, inplace=True)\n"
                                    "    qc.h(n)\n    qc.x(n)\n    return")} if _pid == "QPC003_Ex1" else {}))


def _product(T):
    v = np.ones(1, complex)
    for t in T:
        v = np.kron(np.array([math.cos(t), math.sin(t)]), v)
    return v


def _t_cases(rng, n_min):
    return [{"n": n, "T": [math.pi - rng.uniform(0, 2 * math.pi) for _ in range(n)]}
            for n in list(range(n_min, 11)) + [n_min + 1]]


_B3_REF = H + "def solve(n, T):\n    qc = QuantumCircuit(n)\n    for i in range(n):\n        qc.ry(2 * T[i], i)\n    return qc\n"
register(Spec("QPC003_B3", ("n", "T"), lambda rng: _t_cases(rng, 1), _B3_REF,
              (_B3_REF.replace("2 * T[i]", "T[i]"),), nq=lambda p: p["n"],
              target=lambda p: _product(p["T"])))

_REFLECT0 = library("ref_lib", "ref_reflect")
_B4_REF = _REFLECT0 + "\n\ndef solve(n):\n    qc = QuantumCircuit(n)\n    reflect0(qc, list(range(n)))\n    return qc\n"
_B5_REF = _REFLECT0 + ("\n\ndef solve(n):\n    qc = QuantumCircuit(n)\n    qc.h(range(n))\n"
                       "    reflect0(qc, list(range(n)))\n    qc.h(range(n))\n    return qc\n")
_B7_REF = _REFLECT0 + ("\n\ndef solve(n, T):\n    qc = QuantumCircuit(n)\n    for i in range(n):\n"
                       "        qc.ry(-2 * T[i], i)\n    reflect0(qc, list(range(n)))\n"
                       "    for i in range(n):\n        qc.ry(2 * T[i], i)\n    return qc\n")


def _reflection(psi):
    return 2 * np.outer(psi, psi.conj()) - np.eye(len(psi))


register(Spec("QPC003_B4", ("n",), lambda rng: [{"n": n} for n in range(2, 11)], _B4_REF,
              (_B4_REF.replace("    for q in qs:\n        qc.x(q)\n", ""),), mode="unitary",
              nq=lambda p: p["n"],
              target=lambda p, cols: _reflection(np.eye(2 ** p["n"])[0])[:, cols]))
register(Spec("QPC003_B5", ("n",), lambda rng: [{"n": n} for n in range(2, 11)], _B5_REF, (_B4_REF,),
              mode="unitary", nq=lambda p: p["n"],
              target=lambda p, cols: _reflection(np.full(2 ** p["n"], 2 ** (-p["n"] / 2)))[:, cols]))
register(Spec("QPC003_B7", ("n", "T"), lambda rng: _t_cases(rng, 2), _B7_REF,
              (_B7_REF.replace("-2 * T[i]", "2 * T[i]"),), mode="unitary", nq=lambda p: p["n"],
              target=lambda p, cols: _reflection(_product(p["T"]))[:, cols]))

_B6_REF = _REFLECT0 + """

def solve(n, o):
    qc = QuantumCircuit(n)
    qc.h(range(n))
    qc.compose(o, inplace=True)
    qc.h(range(n))
    reflect0(qc, list(range(n)))
    qc.h(range(n))
    return qc
"""


def _phase_sem(p):
    n, L = p["n"], p["_L"]
    f = perm_oracle(n, lambda i: (i, -1 if i == L else 1))
    return {"qcoder_oracle": f, "qcoder_oracle_dg": f}


def _prob_pred(threshold_fn, n_key="n"):
    def pred(p, out):
        n = p[n_key]
        nq = int(round(math.log2(len(out))))
        probs = np.abs(out.reshape(2 ** (nq - n), 2 ** n)) ** 2
        prob = float(probs[:, p["_L"]].sum())
        thr = threshold_fn(p)
        ok = prob >= thr - 1e-9
        return ok, prob, "" if ok else f"|L> = |{p['_L']}> is observed with probability {prob:.4f} < {thr:.4f}"
    return pred


register(Spec(
    "QPC003_B6", ("n", "o"), lambda rng: [{"n": n, "_L": rng.randrange(2 ** n)} for n in range(3, 11)]
    + [{"n": 3, "_L": 0}, {"n": 3, "_L": 7}], _B6_REF,
    (H + "def solve(n, o):\n    qc = QuantumCircuit(n)\n    qc.h(range(n))\n    return qc\n",),
    nq=lambda p: p["n"], oracles=lambda p: {"o": {"type": "phase", "n": p["n"], "marked": [p["_L"]]}},
    semantics=_phase_sem, predicate=_prob_pred(lambda p: 4 / 2 ** p["n"])))

_B8_REF = _REFLECT0 + """

def solve(n, o):
    qc = QuantumCircuit(n + 1)
    theta = math.asin(1 / math.sqrt(2 ** n))
    k = max(range(0, 40), key=lambda k: math.sin((2 * k + 1) * theta) ** 2)
    qc.x(n)
    qc.h(n)
    qc.h(range(n))
    for _ in range({K}):
        qc.compose(o, inplace=True)
        qc.h(range(n))
        reflect0(qc, list(range(n)))
        qc.h(range(n))
    return qc
"""
register(Spec(
    "QPC003_B8", ("n", "o"), lambda rng: [{"n": n, "_L": rng.randrange(2 ** n)} for n in range(2, 11)]
    + [{"n": 2, "_L": 0}, {"n": 4, "_L": 15}], _B8_REF.replace("{K}", "k"), (_B8_REF.replace("{K}", "1"),),
    nq=lambda p: p["n"] + 1,
    oracles=lambda p: {"o": {"type": "bitflip", "n": p["n"], "marked": [p["_L"]]}},
    semantics=lambda p: _bitflip(p, [p["_L"]]), predicate=_prob_pred(lambda p: 0.9),
    notes="The probability of |L> is the marginal of the first n qubits (the ancilla y is free)."))

_EX2_REF = W_LIB + """

def _s0(qc, qs, phi):
    for q in qs:
        qc.x(q)
    _ctrl(qc, PhaseGate(phi), qs[:-1], [qs[-1]])
    for q in qs:
        qc.x(q)


def solve(n, o):
    # exact Grover (Long 2001) over the n one-hot states, with phase oracles built from o
    qc = QuantumCircuit(n + 1)
    xs = list(range(n))
    w = QuantumCircuit(n + 1)
    w_state(w, xs)
    theta = math.asin(1 / math.sqrt(n))
    k = max(1, math.ceil((math.pi / 2 - theta) / (2 * theta)))
    phi = 2 * math.asin(math.sin(math.pi / (4 * k + 2)) / math.sin(theta))
    qc.compose(w, inplace=True)
    for _ in range(k):
        qc.compose(o, inplace=True)
        qc.p({SIGN}phi, n)
        qc.compose(o, inplace=True)
        qc.compose(w.inverse(), inplace=True)
        _s0(qc, xs, phi)
        qc.compose(w, inplace=True)
    return qc
"""
_EX2_WRONG = W_LIB + """

def solve(n, o):
    qc = QuantumCircuit(n + 1)
    w_state(qc, list(range(n)))
    return qc
"""
register(Spec(
    "QPC003_Ex2", ("n", "o"), lambda rng: [{"n": n, "_L": 2 ** rng.randrange(n)} for n in range(2, 11)]
    + [{"n": 2, "_L": 1}, {"n": 2, "_L": 2}, {"n": 7, "_L": 64}], _EX2_REF.replace("{SIGN}", ""),
    (_EX2_WRONG,), nq=lambda p: (p["n"], p["n"] + 1),
    oracles=lambda p: {"o": {"type": "bitflip", "n": p["n"], "marked": [p["_L"]]}},
    semantics=lambda p: _bitflip(p, [p["_L"]]), predicate=_prob_pred(lambda p: 0.9),
    notes="The statement defines O on n + 1 qubits (|x>|y>) but its template builds an n-qubit "
          "circuit, which cannot hold O. The judge gives O on n + 1 qubits and accepts a circuit "
          "of n or n + 1 qubits; the probability of |L> is the marginal of the first n qubits."))
