"""QCoder specs, contest QPC002 (see ``specs.base``)."""

from __future__ import annotations

import math

import numpy as np

from .base import Spec, grid, mapped, program, register, vec

TWO_PI = 2 * math.pi


def _ghz_minus(n):
    v = np.zeros(2 ** n, complex)
    v[0], v[-1] = 1 / math.sqrt(2), -1 / math.sqrt(2)
    return v


for _pid, _ref in (("QPC002_A3", "a3"), ("QPC002_A4", "a4"), ("QPC002_A5", "a4")):
    register(Spec(_pid, ("n",), lambda rng: [{"n": n} for n in range(2, 16)],
                  program(f"qpc002.{_ref}"), (program("qpc002.a3_wrong"),),
                  nq=lambda p: p["n"], target=lambda p: _ghz_minus(p["n"]),
                  extra={"dle": program("qpc002.a3")} if _pid == "QPC002_A5" else {}))

register(Spec(
    "QPC002_A1", (), lambda rng: [{}],
    program("qpc002.a1"),
    (program("qpc002.a1_wrong"),),
    nq=lambda p: 1, counted=True, target=lambda p: -vec(1, {0: 1})))

register(Spec(
    "QPC002_A2", (), lambda rng: [{}],
    program("qpc002.a2"),
    (program("qpc001.a3"),),
    nq=lambda p: 2, target=lambda p: _ghz_minus(2)))


def _thetas(rng, k):
    return [0.0, math.pi / 2, math.pi, 3 * math.pi / 2] + [rng.uniform(0, TWO_PI) for _ in range(k)]


register(Spec(
    "QPC002_B1", ("theta",), lambda rng: [{"theta": t} for t in _thetas(rng, 6)],
    program("qpc002.b1"),
    (program("qpc002.b1_wrong"),),
    nq=lambda p: 1, counted=True, target=lambda p: np.array([np.exp(1j * p["theta"]), 0])))

def _b2_cases(rng):
    cases = [{"n": n, "L": L, "theta": rng.uniform(0, TWO_PI)} for n in (1, 2, 3) for L in range(2 ** n)]
    cases += [{"n": n, "L": rng.randrange(2 ** n), "theta": rng.uniform(0, TWO_PI)} for n in range(4, 11)]
    return cases


register(Spec(
    "QPC002_B2", ("n", "L", "theta"), _b2_cases, program("qpc002.b2"),
    (program("qpc002.b2_wrong"),), mode="unitary",
    nq=lambda p: p["n"],
    target=lambda p, cols: mapped(p["n"], cols, lambda i: (i, np.exp(1j * p["theta"]) if i == p["L"] else 1))))

_SWAP_T = lambda p, cols: mapped(2, cols, lambda i: (((i & 1) << 1) | (i >> 1), 1))  # noqa: E731
register(Spec(
    "QPC002_B3", (), lambda rng: [{}], program("qpc002.b3"),
    (program("qpc002.b3_wrong"),),
    mode="unitary", nq=lambda p: 2, target=_SWAP_T,
    extra={"uge": program("qpc002.b3_uge")}))


def _qft_matrix(n):
    N = 2 ** n
    j = np.arange(N)
    return np.exp(2j * np.pi * np.outer(j, j) / N) / math.sqrt(N)


register(Spec(
    "QPC002_B4", ("n",), lambda rng: [{"n": n} for n in range(1, 11)],
    program("qpc002.b4"),
    (program("qpc002.b4_wrong"),),
    mode="unitary", nq=lambda p: p["n"], target=lambda p, cols: _qft_matrix(p["n"])[:, cols]))


def _f(S, x):
    return sum(s for k, s in enumerate(S) if (x >> k) & 1)


def _nms_cases(rng, nm_max, total_max, small=3):
    cases = []
    for n, m in grid(n=range(1, small + 1), m=range(1, small + 1)) and [
            (d["n"], d["m"]) for d in grid(n=range(1, small + 1), m=range(1, small + 1))]:
        cases.append({"n": n, "m": m, "S": [rng.randrange(2 ** m) for _ in range(n)]})
    for _ in range(6):
        n = rng.randint(1, nm_max)
        m = rng.randint(1, min(nm_max, total_max - n)) if total_max - n >= 1 else 1
        if n + m > total_max:
            continue
        cases.append({"n": n, "m": m, "S": [rng.randrange(2 ** m) for _ in range(n)]})
    return cases


register(Spec(
    "QPC002_B5", ("n", "m", "S"), lambda rng: _nms_cases(rng, 10, 20) + [
        {"n": 10, "m": 10, "S": [rng.randrange(1024) for _ in range(10)]}],
    program("qpc002.b5"), (program("qpc002.b5_wrong"),),
    mode="unitary", nq=lambda p: p["n"],
    target=lambda p, cols: mapped(p["n"], cols, lambda x: (x, np.exp(2j * np.pi * _f(p["S"], x) / 2 ** p["m"]))),
    notes="The upstream statement file has no code template ('((FORMAT TO BE ADDED DURING "
          "RENDERING))'); the dataset renders the QCoder site's format, solve(n, m, S) on an "
          "n-qubit circuit, which is what the judge calls."))

def _cases_nm9(rng):
    return _nms_cases(rng, 9, 10) + [{"n": 1, "m": 9, "S": [rng.randrange(512)]},
                                     {"n": 9, "m": 1, "S": [rng.randrange(2) for _ in range(9)]},
                                     {"n": 5, "m": 5, "S": [rng.randrange(32) for _ in range(5)]}]


register(Spec(
    "QPC002_B6", ("n", "m", "S"), _cases_nm9, program("qpc002.b6"),
    (program("qpc002.b6_wrong"),), mode="unitary",
    nq=lambda p: p["n"] + p["m"], columns=lambda p: list(range(2 ** p["n"])),
    target=lambda p, cols: mapped(p["n"] + p["m"], cols,
                                  lambda x: (x + 2 ** p["n"] * (_f(p["S"], x) % 2 ** p["m"]), 1))))

register(Spec(
    "QPC002_B7", ("n", "m", "S"), _cases_nm9, program("qpc002.b7"),
    (program("qpc002.b7_wrong"),), mode="unitary",
    nq=lambda p: p["n"] + p["m"],
    target=lambda p, cols: mapped(p["n"] + p["m"], cols, lambda i: (
        (i % 2 ** p["n"]) + 2 ** p["n"] * ((i // 2 ** p["n"] + _f(p["S"], i % 2 ** p["n"])) % 2 ** p["m"]), 1))))


def _b8_cases(rng):
    out = []
    for c in _cases_nm9(rng):
        S = c["S"]
        hits = [_f(S, x) % 2 ** c["m"] for x in range(2 ** c["n"])]
        L = rng.choice(hits) if rng.random() < 0.8 else rng.randrange(2 ** c["m"])
        out.append({"n": c["n"], "m": c["m"], "L": L, "S": S, "theta": rng.uniform(0, TWO_PI)})
    return out


register(Spec(
    "QPC002_B8", ("n", "m", "L", "S", "theta"), _b8_cases, program("qpc002.b8"),
    (program("qpc002.b8_wrong"),), mode="unitary",
    nq=lambda p: p["n"] + p["m"], columns=lambda p: list(range(2 ** p["n"])),
    target=lambda p, cols: mapped(p["n"] + p["m"], cols, lambda x: (
        x, np.exp(1j * p["theta"]) if _f(p["S"], x) % 2 ** p["m"] == p["L"] else 1))))


# ----------------------------------------------------------------- QPC002_Ex (amplitude amplification)

def _ex_cases(rng):
    out = []
    for n, P in ((1, 0.02), (1, 1.0), (2, 0.05), (2, 0.3), (3, 0.02), (3, 0.1), (4, 0.25),
                 (5, 0.02), (5, 0.6)):
        lam = rng.uniform(P, min(1.0, 4 * P))
        ops = []
        for _layer in range(2):
            for q in range(n):
                ops += [["ry", rng.uniform(0, TWO_PI), q], ["rz", rng.uniform(0, TWO_PI), q]]
            ops += [["cx", q, q + 1] for q in range(n - 1)]
        out.append({"n": n, "P": P, "_lambda": lam, "_V": ops, "_alpha": 2 * math.acos(math.sqrt(lam))})
    return out


def _v_matrix(p):
    from qiskit import QuantumCircuit
    from qiskit.quantum_info import Operator

    V = QuantumCircuit(p["n"])
    for name, *args in p["_V"]:
        getattr(V, name)(*args)
    W = QuantumCircuit(p["n"])
    W.ry(p["_alpha"], 0)
    return Operator(V).data, Operator(W).data


def _ex_semantics(p):
    V, W = _v_matrix(p)
    U = V @ W
    e0 = np.zeros(2 ** p["n"])
    e0[0] = 1

    def R(op, inverse=False):
        th = float(op.params[0])
        m = V @ np.diag(np.where(e0 == 1, np.exp(1j * th), 1)) @ V.conj().T
        return ("dense", m.conj().T if inverse else m)

    return {"qcoder_U": lambda op: ("dense", U), "qcoder_U_dg": lambda op: ("dense", U.conj().T),
            "qcoder_R": R, "qcoder_R_dg": lambda op: R(op, True)}


def _ex_pred(p, out):
    V, _ = _v_matrix(p)
    omega = V[:, 0]
    prob = float(abs(np.vdot(omega, out)) ** 2)
    ok = prob >= 0.98
    return ok, prob, "" if ok else f"|<omega|O|0>|^2 = {prob:.4f} < 0.99 - 0.01"


register(Spec(
    "QPC002_Ex", ("n", "P", "U", "R"), _ex_cases, program("qpc002.ex"),
    (program("qpc002.ex_wrong"),),
    nq=lambda p: p["n"], pair=lambda p: {"U": [{"type": "grover", "n": p["n"], "V": p["_V"],
                                              "alpha": p["_alpha"]}, 0],
                                        "R": [{"type": "grover", "n": p["n"], "V": p["_V"],
                                               "alpha": p["_alpha"]}, 1]},
    semantics=_ex_semantics, predicate=_ex_pred, query_gates=("qcoder_R", "qcoder_R_dg"),
    notes="|omega> = V|0> for a random circuit V; U|0> = V(sqrt(l)|0> + sqrt(1-l)|1..>) with l drawn "
          "in [P, min(1, 4P)]; R(theta) = V S_0(theta) V^dagger. 'at least 0.99 within an error of "
          "0.01' is read as |<omega|O|0>|^2 >= 0.98. The R-count limit counts R and R^dagger."))
