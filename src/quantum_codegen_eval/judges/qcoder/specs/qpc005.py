"""QCoder specs, contest QPC005 (see ``specs.base``)."""

from __future__ import annotations

import functools
import math

import numpy as np

from .base import Spec, mapped, program, register, vec

_S2 = 1 / math.sqrt(2)

register(Spec("QPC005_A1", (), lambda rng: [{}], program("qpc005.a1"),
              (program("qpc001.a1"),),
              nq=lambda p: 1, target=lambda p: vec(1, {0: 1, 1: -1})))

def _a2_map(i):
    if i >> 1:
        return (i, 1)
    return [(0, _S2), (1, _S2 * (-1) ** i)]


register(Spec("QPC005_A2", ("n",), lambda rng: [{"n": n} for n in range(1, 11)], program("qpc005.a2"),
              (program("qpc005.a2_wrong"),), mode="unitary",
              nq=lambda p: p["n"] + 1, target=lambda p, cols: mapped(p["n"] + 1, cols, _a2_map)))

register(Spec("QPC005_A3", ("n",), lambda rng: [{"n": n} for n in range(1, 11)], program("qpc005.a3"),
              (program("qpc005.a3_wrong"),), mode="unitary", nq=lambda p: p["n"] + 1,
              target=lambda p, cols: mapped(p["n"] + 1, cols, lambda i: (i ^ 1 if i >> 1 else i, 1))))

register(Spec("QPC005_A4", ("n",), lambda rng: [{"n": n} for n in range(1, 11)], program("qpc005.a4"),
              (program("qpc005.a4_wrong"),),
              mode="unitary", nq=lambda p: p["n"] + 1,
              target=lambda p, cols: mapped(p["n"] + 1, cols, lambda i: (
                  ((i << 1) & (2 ** (p["n"] + 1) - 1)) | (i >> p["n"]), 1))))

register(Spec("QPC005_A5", ("n",), lambda rng: [{"n": n} for n in range(1, 11)], program("qpc005.a5"),
              (program("qpc005.a5_wrong"),), mode="unitary", nq=lambda p: p["n"],
              target=lambda p, cols: mapped(p["n"], cols, lambda k: ((-k) % 2 ** p["n"], 1))))

register(Spec("QPC005_B1", ("n", "k_const"),
              lambda rng: [{"n": n, "k_const": rng.randrange(2 ** n)} for n in range(2, 11)]
              + [{"n": 2, "k_const": 0}, {"n": 3, "k_const": 7}],
              program("qpc005.b1"), (program("qpc005.b1_wrong"),), mode="unitary", nq=lambda p: p["n"],
              target=lambda p, cols: mapped(p["n"], cols, lambda a: (a, np.exp(2j * np.pi * a * p["k_const"] / 2 ** p["n"]))),
              notes="O QFT(k) = QFT(k + k_const) for every k fixes O = diag(w^(a k_const)) up to one "
                    "global phase; the full unitary is compared."))


# ----------------------------------------------------------------- dihedral-group problems (B2, B3)

@functools.lru_cache(maxsize=4)
def e_matrix(n: int) -> np.ndarray:
    """Columns E(m, k) (column index m + 2k) of QPC005_B2/B3, qubits a=0, b=1, c=2..n."""
    N = 2 ** n
    E = np.zeros((2 ** (n + 1), 2 * N), complex)
    ks = np.arange(N)
    for m in range(2):
        cols = m + 2 * ks
        for a in range(2):
            for b in range(2):
                E[a + 2 * b, cols] = (-1.0) ** (a * m) * (-1.0) ** (b * ks) / math.sqrt(2 ** (n + 1))
        c = np.arange(1, 2 ** (n - 1))
        phi = 2 * np.pi * np.outer(c, ks) / N
        E[np.ix_(m + 4 * c, cols)] += np.exp(-1j * phi) / math.sqrt(N)
        E[np.ix_((1 ^ m) + 2 + 4 * c, cols)] += np.exp(1j * phi) / math.sqrt(N)
    return E


def _group_target(new):
    def target(p, cols):
        n = p["n"]
        N = 2 ** n
        E = e_matrix(n)
        perm = [0] * (2 * N)
        for m in range(2):
            for k in range(N):
                m2, k2 = new(p, m, k, N)
                perm[m + 2 * k] = m2 + 2 * (k2 % N)
        return E[:, perm] @ E.conj().T[:, cols]
    return target


def _left(p, m, k, N):
    return (p["m_left"] + m) % 2, (-1) ** m * p["k_left"] + k


def _right(p, m, k, N):
    return (m + p["m_right"]) % 2, (-1) ** p["m_right"] * k + p["k_right"]


def _g_cases(rng, m_key, k_key):
    out = [{"n": 2, m_key: m, k_key: k} for m in range(2) for k in range(4)]
    for n in range(3, 9):
        out.append({"n": n, m_key: rng.randrange(2), k_key: rng.randrange(2 ** n)})
    out.append({"n": 10, m_key: 1, k_key: rng.randrange(1024)})
    return out


register(Spec("QPC005_B2", ("n", "m_left", "k_left"), lambda rng: _g_cases(rng, "m_left", "k_left"), program("qpc005.b2"),
              (program("qpc005.b2_wrong"),),
              mode="unitary", nq=lambda p: p["n"] + 1, target=_group_target(_left),
              extra={"max_columns": 64},
              notes="O is fixed on the basis {E(m, k)}; the judge compares O's action on (a seeded "
                    "sample of) computational basis states, O = sum |E(g_left g)><E(g)|."))
register(Spec("QPC005_B3", ("n", "m_right", "k_right"), lambda rng: _g_cases(rng, "m_right", "k_right"), program("qpc005.b3"),
              (program("qpc005.b3_wrong"),),
              mode="unitary", nq=lambda p: p["n"] + 1, target=_group_target(_right),
              extra={"max_columns": 64}, notes="As QPC005_B2 with O = sum |E(g g_right)><E(g)|."))


# ----------------------------------------------------------------- QPC005_Ex

def ex_map(p: dict, m: int, k: int) -> tuple[int, int]:
    """(m', k') with g(m', k') = g_before, then g(m, k), then g_after (index maps i -> s i + c)."""
    N = 2 ** p["n"]

    def affine(mm, kk):
        return (-1) ** mm, (kk - mm) % N

    sa, ca = affine(p["m_after"], p["k_after"])
    sb, cb = affine(p["m_before"], p["k_before"])
    s, c = affine(m, k)
    S = sb * s * sa
    C = (sb * (s * ca + c) + cb) % N
    m2 = 0 if S == 1 else 1
    return m2, (C + m2) % N


def g_list(n: int, m: int, k: int, p: list) -> list:
    """The statement's g(m, k) applied literally to a list (to cross-check ``ex_map``)."""
    for _ in range(k):
        p = p[1:] + p[:1]
    return p[::-1] if m else p


def _ex_cases(rng):
    out = []
    for n in range(2, 11):
        out.append({"n": n, "m_before": rng.randrange(2), "k_before": rng.randrange(2 ** n),
                    "m_after": rng.randrange(2), "k_after": rng.randrange(2 ** n)})
    out += [{"n": 2, "m_before": mb, "k_before": 1, "m_after": ma, "k_after": 2} for mb in range(2) for ma in range(2)]
    return out


register(Spec("QPC005_Ex", ("n", "m_before", "k_before", "m_after", "k_after"), _ex_cases, program("qpc005.ex"),
              (program("qpc005.ex_wrong"),),
              mode="unitary", nq=lambda p: p["n"] + 1,
              target=lambda p, cols: mapped(p["n"] + 1, cols, lambda i: (
                  (lambda mk: mk[0] + 2 * mk[1])(ex_map(p, i & 1, i >> 1)), 1)),
              notes="Qubit 0 holds m and qubits 1..n hold k (the order of |m>|k>_n)."))
