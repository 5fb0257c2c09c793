"""QCoder specs, contest QPC003 (see ``specs.base``)."""

from __future__ import annotations

import math

import numpy as np

from .base import Spec, mapped, perm_oracle, program, register, vec


def _w(n):
    return vec(n, {2 ** q: 1 for q in range(n)})


register(Spec(
    "QPC003_A1", (), lambda rng: [{}],
    program("qpc003.a1"),
    (program("qpc003.a1_wrong"),),
    nq=lambda p: 1, counted=True, target=lambda p: np.array([0, 1j])))

register(Spec(
    "QPC003_A2", (), lambda rng: [{}],
    program("qpc003.a2"),
    (program("qpc001.a3"),),
    nq=lambda p: 2, target=lambda p: vec(2, {1: 1, 2: 1})))

register(Spec("QPC003_A3", (), lambda rng: [{}], program("qpc003.a3"),
              (program("qpc003.a3_wrong"),),
              nq=lambda p: 3, target=lambda p: _w(3)))
for _pid in ("QPC003_A4", "QPC003_A5", "QPC003_A6"):
    register(Spec(_pid, ("n",), lambda rng: [{"n": n} for n in range(2, 16)],
                  program("qpc003.a4"), (program("qpc003.a4_wrong"),),
                  nq=lambda p: p["n"], target=lambda p: _w(p["n"])))

register(Spec(
    "QPC003_B1", (), lambda rng: [{}], program("qpc001.a1_wrong"),
    (program("qpc003.b1_wrong"),),
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


for _pid in ("QPC003_B2", "QPC003_Ex1"):
    register(Spec(
        _pid, ("n", "o"), _f_cases, program("qpc003.b2"), (program("qpc003.b2_wrong"),),
        mode="unitary",
        nq=lambda p: p["n"] + 1, columns=lambda p: list(range(2 ** p["n"])),
        oracles=lambda p: {"o": {"type": "bitflip", "n": p["n"],
                                 "marked": [x for x, v in enumerate(p["_f"]) if v]}},
        semantics=lambda p: _bitflip(p, [x for x, v in enumerate(p["_f"]) if v]),
        target=lambda p, cols: mapped(p["n"] + 1, cols, lambda x: (x, (-1) ** p["_f"][x])),
        query_gates=("qcoder_oracle", "qcoder_oracle_dg"),
        notes="The statement does not say whether the global phase counts; it is ignored. "
              "Only inputs with y = 0 are tested.",
        extra={"dle": program("qpc003.ex1_dle")} if _pid == "QPC003_Ex1" else {}))


def _product(T):
    v = np.ones(1, complex)
    for t in T:
        v = np.kron(np.array([math.cos(t), math.sin(t)]), v)
    return v


def _t_cases(rng, n_min):
    return [{"n": n, "T": [math.pi - rng.uniform(0, 2 * math.pi) for _ in range(n)]}
            for n in list(range(n_min, 11)) + [n_min + 1]]


register(Spec("QPC003_B3", ("n", "T"), lambda rng: _t_cases(rng, 1), program("qpc003.b3"),
              (program("qpc003.b3_wrong"),), nq=lambda p: p["n"],
              target=lambda p: _product(p["T"])))

def _reflection(psi):
    return 2 * np.outer(psi, psi.conj()) - np.eye(len(psi))


register(Spec("QPC003_B4", ("n",), lambda rng: [{"n": n} for n in range(2, 11)], program("qpc003.b4"),
              (program("qpc003.b4_wrong"),), mode="unitary",
              nq=lambda p: p["n"],
              target=lambda p, cols: _reflection(np.eye(2 ** p["n"])[0])[:, cols]))
register(Spec("QPC003_B5", ("n",), lambda rng: [{"n": n} for n in range(2, 11)], program("qpc003.b5"), (program("qpc003.b4"),),
              mode="unitary", nq=lambda p: p["n"],
              target=lambda p, cols: _reflection(np.full(2 ** p["n"], 2 ** (-p["n"] / 2)))[:, cols]))
register(Spec("QPC003_B7", ("n", "T"), lambda rng: _t_cases(rng, 2), program("qpc003.b7"),
              (program("qpc003.b7_wrong"),), mode="unitary", nq=lambda p: p["n"],
              target=lambda p, cols: _reflection(_product(p["T"]))[:, cols]))

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
    + [{"n": 3, "_L": 0}, {"n": 3, "_L": 7}], program("qpc003.b6"),
    (program("qpc003.b6_wrong"),),
    nq=lambda p: p["n"], oracles=lambda p: {"o": {"type": "phase", "n": p["n"], "marked": [p["_L"]]}},
    semantics=_phase_sem, predicate=_prob_pred(lambda p: 4 / 2 ** p["n"])))

register(Spec(
    "QPC003_B8", ("n", "o"), lambda rng: [{"n": n, "_L": rng.randrange(2 ** n)} for n in range(2, 11)]
    + [{"n": 2, "_L": 0}, {"n": 4, "_L": 15}], program("qpc003.b8"), (program("qpc003.b8_wrong"),),
    nq=lambda p: p["n"] + 1,
    oracles=lambda p: {"o": {"type": "bitflip", "n": p["n"], "marked": [p["_L"]]}},
    semantics=lambda p: _bitflip(p, [p["_L"]]), predicate=_prob_pred(lambda p: 0.9),
    notes="The probability of |L> is the marginal of the first n qubits (the ancilla y is free)."))

register(Spec(
    "QPC003_Ex2", ("n", "o"), lambda rng: [{"n": n, "_L": 2 ** rng.randrange(n)} for n in range(2, 11)]
    + [{"n": 2, "_L": 1}, {"n": 2, "_L": 2}, {"n": 7, "_L": 64}], program("qpc003.ex2"),
    (program("qpc003.ex2_wrong"),), nq=lambda p: (p["n"], p["n"] + 1),
    oracles=lambda p: {"o": {"type": "bitflip", "n": p["n"], "marked": [p["_L"]]}},
    semantics=lambda p: _bitflip(p, [p["_L"]]), predicate=_prob_pred(lambda p: 0.9),
    notes="The statement defines O on n + 1 qubits (|x>|y>) but its template builds an n-qubit "
          "circuit, which cannot hold O. The judge gives O on n + 1 qubits and accepts a circuit "
          "of n or n + 1 qubits; the probability of |L> is the marginal of the first n qubits."))
