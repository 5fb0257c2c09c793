"""QCoder specs, contest QPC002 (see ``specs.base``)."""

from __future__ import annotations

import math

import numpy as np

from .base import REF_LIB, Spec, grid, library, mapped, register, vec

H = "from qiskit import QuantumCircuit\n"
TWO_PI = 2 * math.pi


def _ghz_minus(n):
    v = np.zeros(2 ** n, complex)
    v[0], v[-1] = 1 / math.sqrt(2), -1 / math.sqrt(2)
    return v


_GHZ_TREE = H + """

def solve(n):
    qc = QuantumCircuit(n)
    qc.x(0)
    qc.h(0)
    k = 1
    while k < n:
        for i in range(k):
            if i + k < n:
                qc.cx(i, i + k)
        k *= 2
    return qc
"""
_GHZ_CHAIN = H + """

def solve(n):
    qc = QuantumCircuit(n)
    qc.x(0)
    qc.h(0)
    for i in range(n - 1):
        qc.cx(i, i + 1)
    return qc
"""
_GHZ_PLUS = _GHZ_TREE.replace("    qc.x(0)\n", "")

for _pid, _ref in (("QPC002_A3", _GHZ_CHAIN), ("QPC002_A4", _GHZ_TREE), ("QPC002_A5", _GHZ_TREE)):
    register(Spec(_pid, ("n",), lambda rng: [{"n": n} for n in range(2, 16)], _ref, (_GHZ_PLUS,),
                  nq=lambda p: p["n"], target=lambda p: _ghz_minus(p["n"]),
                  extra={"dle": _GHZ_CHAIN} if _pid == "QPC002_A5" else {}))

register(Spec(
    "QPC002_A1", (), lambda rng: [{}],
    H + "def solve():\n    qc = QuantumCircuit(1)\n    qc.x(0)\n    qc.z(0)\n    qc.x(0)\n    return qc\n",
    (H + "def solve():\n    qc = QuantumCircuit(1)\n    qc.z(0)\n    return qc\n",),
    nq=lambda p: 1, counted=True, target=lambda p: -vec(1, {0: 1})))

register(Spec(
    "QPC002_A2", (), lambda rng: [{}],
    H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.x(0)\n    qc.h(0)\n    qc.cx(0, 1)\n    return qc\n",
    (H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    qc.cx(0, 1)\n    return qc\n",),
    nq=lambda p: 2, target=lambda p: _ghz_minus(2)))


def _thetas(rng, k):
    return [0.0, math.pi / 2, math.pi, 3 * math.pi / 2] + [rng.uniform(0, TWO_PI) for _ in range(k)]


register(Spec(
    "QPC002_B1", ("theta",), lambda rng: [{"theta": t} for t in _thetas(rng, 6)],
    H + "def solve(theta):\n    qc = QuantumCircuit(1)\n    qc.x(0)\n    qc.p(theta, 0)\n    qc.x(0)\n    return qc\n",
    (H + "def solve(theta):\n    qc = QuantumCircuit(1)\n    qc.p(theta, 0)\n    return qc\n",),
    nq=lambda p: 1, counted=True, target=lambda p: np.array([np.exp(1j * p["theta"]), 0])))

_PHASE_ON = REF_LIB + """

def solve(n, L, theta):
    qc = QuantumCircuit(n)
    zeros = [q for q in range(n) if not (L >> q) & 1]
    for q in zeros:
        qc.x(q)
    _ctrl(qc, PhaseGate(theta), range(n - 1), [n - 1])
    for q in zeros:
        qc.x(q)
    return qc
"""


def _b2_cases(rng):
    cases = [{"n": n, "L": L, "theta": rng.uniform(0, TWO_PI)} for n in (1, 2, 3) for L in range(2 ** n)]
    cases += [{"n": n, "L": rng.randrange(2 ** n), "theta": rng.uniform(0, TWO_PI)} for n in range(4, 11)]
    return cases


register(Spec(
    "QPC002_B2", ("n", "L", "theta"), _b2_cases, _PHASE_ON,
    (_PHASE_ON.replace("PhaseGate(theta)", "PhaseGate(-theta)"),), mode="unitary",
    nq=lambda p: p["n"],
    target=lambda p, cols: mapped(p["n"], cols, lambda i: (i, np.exp(1j * p["theta"]) if i == p["L"] else 1))))

_SWAP3 = H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.cx(0, 1)\n    qc.cx(1, 0)\n    qc.cx(0, 1)\n    return qc\n"
_SWAP_T = lambda p, cols: mapped(2, cols, lambda i: (((i & 1) << 1) | (i >> 1), 1))  # noqa: E731
register(Spec(
    "QPC002_B3", (), lambda rng: [{}], _SWAP3,
    (H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.cx(0, 1)\n    qc.cx(1, 0)\n    return qc\n",),
    mode="unitary", nq=lambda p: 2, target=_SWAP_T,
    extra={"uge": H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.swap(0, 1)\n    return qc\n"}))


def _qft_matrix(n):
    N = 2 ** n
    j = np.arange(N)
    return np.exp(2j * np.pi * np.outer(j, j) / N) / math.sqrt(N)


register(Spec(
    "QPC002_B4", ("n",), lambda rng: [{"n": n} for n in range(1, 11)],
    REF_LIB + "\n\ndef solve(n):\n    qc = QuantumCircuit(n)\n    qft(qc, list(range(n)))\n    return qc\n",
    (REF_LIB + "\n\ndef solve(n):\n    qc = QuantumCircuit(n)\n    qft_noswap(qc, list(range(n)))\n    return qc\n",),
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


_B5_REF = H + """import math


def solve(n, m, S):
    qc = QuantumCircuit(n)
    for k in range(n):
        if S[k]:
            qc.p(2 * math.pi * S[k] / 2 ** m, k)
    return qc
"""
register(Spec(
    "QPC002_B5", ("n", "m", "S"), lambda rng: _nms_cases(rng, 10, 20) + [
        {"n": 10, "m": 10, "S": [rng.randrange(1024) for _ in range(10)]}],
    _B5_REF, (_B5_REF.replace("qc.p(2 * math.pi * S[k] / 2 ** m, k)", "qc.p(2 * math.pi * S[k] / 2 ** m, n - 1 - k)"),),
    mode="unitary", nq=lambda p: p["n"],
    target=lambda p, cols: mapped(p["n"], cols, lambda x: (x, np.exp(2j * np.pi * _f(p["S"], x) / 2 ** p["m"]))),
    notes="The upstream statement file has no code template ('((FORMAT TO BE ADDED DURING "
          "RENDERING))'); the dataset renders the QCoder site's format, solve(n, m, S) on an "
          "n-qubit circuit, which is what the judge calls."))

_ADD_LIB = library("ref_lib", "ref_adder")
_B6_REF = _ADD_LIB + """

def solve(n, m, S):
    qc = QuantumCircuit(n + m)
    qc.h(range(n, n + m))
    _phases(qc, n, m, S)
    _qinv(qc, n, m)
    return qc
"""
_B7_REF = _ADD_LIB + """

def solve(n, m, S):
    qc = QuantumCircuit(n + m)
    _q(qc, n, m)
    _phases(qc, n, m, S)
    _qinv(qc, n, m)
    return qc
"""
_B8_REF = _ADD_LIB + """

def solve(n, m, L, S, theta):
    c = QuantumCircuit(n + m)
    c.h(range(n, n + m))
    _phases(c, n, m, S)
    _qinv(c, n, m)
    qc = QuantumCircuit(n + m)
    qc.compose(c, inplace=True)
    zeros = [n + q for q in range(m) if not (L >> q) & 1]
    for q in zeros:
        qc.x(q)
    _ctrl(qc, PhaseGate(theta), range(n, n + m - 1), [n + m - 1])
    for q in zeros:
        qc.x(q)
    qc.compose(c.inverse(), inplace=True)
    return qc
"""


def _cases_nm9(rng):
    return _nms_cases(rng, 9, 10) + [{"n": 1, "m": 9, "S": [rng.randrange(512)]},
                                     {"n": 9, "m": 1, "S": [rng.randrange(2) for _ in range(9)]},
                                     {"n": 5, "m": 5, "S": [rng.randrange(32) for _ in range(5)]}]


register(Spec(
    "QPC002_B6", ("n", "m", "S"), _cases_nm9, _B6_REF,
    (_B6_REF.replace("_phases(qc, n, m, S)", "_phases(qc, n, m, S[::-1])"),), mode="unitary",
    nq=lambda p: p["n"] + p["m"], columns=lambda p: list(range(2 ** p["n"])),
    target=lambda p, cols: mapped(p["n"] + p["m"], cols,
                                  lambda x: (x + 2 ** p["n"] * (_f(p["S"], x) % 2 ** p["m"]), 1))))

register(Spec(
    "QPC002_B7", ("n", "m", "S"), _cases_nm9, _B7_REF,
    (_B7_REF.replace("_phases(qc, n, m, S)", "_phases(qc, n, m, S, -1)"),), mode="unitary",
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
    "QPC002_B8", ("n", "m", "L", "S", "theta"), _b8_cases, _B8_REF,
    (_B8_REF.replace("PhaseGate(theta)", "PhaseGate(-theta)"),), mode="unitary",
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


_EX_REF = """from qiskit import QuantumCircuit
import math


def _s0(qc, n, alpha):
    qc.x(range(n))
    if n == 1:
        qc.p(alpha, 0)
    else:
        qc.mcp(alpha, list(range(n - 1)), n - 1)
    qc.x(range(n))


def solve(n, P, U, R):
    # fixed-point amplitude amplification (Yoder, Low, Chuang 2014), delta = 0.1
    delta = 0.1
    L = 1
    while True:
        gamma = 1 / math.cosh(math.acosh(1 / delta) / L)
        if 1 - gamma ** 2 <= P:
            break
        L += 2
    l = (L - 1) // 2
    s = math.sqrt(1 - gamma ** 2)
    alpha = [2 * math.atan2(1, math.tan(2 * math.pi * j / L) * s) for j in range(1, l + 1)]
    beta = [-alpha[l - j] for j in range(1, l + 1)]
    u = U()
    qc = QuantumCircuit(n)
    qc.compose(u, inplace=True)
    for j in range(l):
        qc.compose(R(-beta[j]), inplace=True)
        qc.compose(u.inverse(), inplace=True)
        _s0(qc, n, alpha[j])
        qc.compose(u, inplace=True)
    return qc
"""
register(Spec(
    "QPC002_Ex", ("n", "P", "U", "R"), _ex_cases, _EX_REF,
    ("from qiskit import QuantumCircuit\n\n\ndef solve(n, P, U, R):\n    qc = QuantumCircuit(n)\n"
     "    qc.compose(U(), inplace=True)\n    return qc\n",),
    nq=lambda p: p["n"], pair=lambda p: {"U": [{"type": "grover", "n": p["n"], "V": p["_V"],
                                              "alpha": p["_alpha"]}, 0],
                                        "R": [{"type": "grover", "n": p["n"], "V": p["_V"],
                                               "alpha": p["_alpha"]}, 1]},
    semantics=_ex_semantics, predicate=_ex_pred, query_gates=("qcoder_R", "qcoder_R_dg"),
    notes="|omega> = V|0> for a random circuit V; U|0> = V(sqrt(l)|0> + sqrt(1-l)|1..>) with l drawn "
          "in [P, min(1, 4P)]; R(theta) = V S_0(theta) V^dagger. 'at least 0.99 within an error of "
          "0.01' is read as |<omega|O|0>|^2 >= 0.98. The R-count limit counts R and R^dagger."))
