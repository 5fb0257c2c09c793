"""The spec type, its registry and the helpers the contest modules share.

A :class:`Spec` says how to test one problem: ``sample(rng)`` gives the test cases (solve()
arguments, plus hidden values such as an oracle's marked item), ``compare`` simulates the
returned circuit and checks it against a target built directly (numpy) from the statement.
Each spec carries its own reference solution (``reference``, a ``solve()`` the judge accepts) and
wrong solutions (``wrong``) that must get WA.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import simulate as sim
from ..compare import compare_vectors

#: most amplitudes the judge computes per test (2**n times the number of tested columns)
MAX_AMPLITUDES = 1 << 18


@dataclass(frozen=True)
class Spec:
    """How to judge one problem. ``target`` builds the expected output from the case params."""

    id: str
    args: tuple[str, ...]
    gen: Callable[[random.Random], list[dict[str, Any]]]
    reference: str
    wrong: tuple[str, ...]
    mode: str = "state"                       # "state" | "unitary" | "classical"
    nq: Callable[[dict], int | tuple[int, ...]] | None = None
    target: Callable[..., np.ndarray] | None = None   # state: f(p); unitary: f(p, cols)
    columns: Callable[[dict], list[int]] | None = None  # unitary: tested inputs (None = all)
    mask: Callable[[dict, int], np.ndarray] | None = None  # output rows that are checked
    predicate: Callable[[dict, np.ndarray], tuple[bool, float, str]] | None = None
    check: Callable[[dict, Any], tuple[bool, str]] | None = None  # classical
    counted: bool = False
    oracles: Callable[[dict], dict[str, dict]] | None = None
    pair: Callable[[dict], dict[str, list]] | None = None
    semantics: Callable[[dict], dict[str, sim.Trusted]] | None = None
    query_gates: tuple[str, ...] = ()
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def sample(self, rng: random.Random) -> list[dict[str, Any]]:
        cases = []
        for p in self.gen(rng):
            cases.append({"args": p, "oracles": self.oracles(p) if self.oracles else {},
                          "pair": self.pair(p) if self.pair else {}})
        return cases

    def qubits(self, case: dict) -> int | tuple[int, ...]:
        return self.nq(case["args"])

    def trusted(self, case: dict) -> dict[str, sim.Trusted]:
        """The hidden oracles' semantics by their spec names (``qcoder_oracle``, ``..._dg``)."""
        return self.semantics(case["args"]) if self.semantics else {}

    def case_name(self, case: dict) -> str:
        parts = []
        for k, v in case["args"].items():
            if k.startswith("_"):
                continue  # a hidden value (an oracle's marked item, ...): never shown
            if isinstance(v, float):
                v = round(v, 4)
            elif isinstance(v, list) and len(v) > 6:
                v = f"[{len(v)} values]"
            elif isinstance(v, int) and v.bit_length() > 64:
                v = f"<{v.bit_length()}-bit int>"
            parts.append(f"{k.lstrip('_')}={v}")
        return ", ".join(parts) or "()"

    def compare(self, case: dict, flat: sim.Flat, nq: int, trusted: dict[str, sim.Oracle],
                ) -> tuple[bool, float, str]:
        """Simulate ``flat`` (oracles by their gate names in ``trusted``) against the target."""
        p = case["args"]
        if self.mode == "state":
            out = sim.simulate(flat, nq, [0], trusted)[:, 0]
            if self.predicate:
                return self.predicate(p, out)
            return compare_vectors(out, self.target(p), self.counted)
        cols = list(self.columns(p)) if self.columns else list(range(2 ** nq))
        limit = min(max(1, MAX_AMPLITUDES >> nq), self.extra.get("max_columns", 1 << 30))
        if len(cols) > limit:
            # which inputs are tested is drawn with the judge's secret when it has one
            # (``check.cases_for``): a program cannot know them and hard-code just those
            key = case.get("sample_key") or repr(sorted(p.items(), key=str))
            cols = sorted(random.Random(key).sample(cols, limit))
        out = sim.simulate(flat, nq, cols, trusted)
        if self.predicate:
            return self.predicate(p, out)
        ref = self.target(p, cols)
        if self.mask is not None:
            rows = self.mask(p, nq)
            out, ref = out[rows], ref[rows]
        return compare_vectors(out, ref, self.counted)


REGISTRY: dict[str, Spec] = {}


def register(spec: Spec) -> Spec:
    if spec.id in REGISTRY:
        raise ValueError(f"duplicate QCoder spec {spec.id}")
    REGISTRY[spec.id] = spec
    return spec


# --------------------------------------------------------------------------- target helpers

def basis(nq: int, index: int) -> np.ndarray:
    v = np.zeros(2 ** nq, dtype=complex)
    v[index] = 1
    return v


def vec(nq: int, amps: dict[int, complex]) -> np.ndarray:
    v = np.zeros(2 ** nq, dtype=complex)
    for i, a in amps.items():
        v[i] += a
    return v / np.linalg.norm(v)


def mapped(nq: int, cols: list[int], fn: Callable[[int], Any]) -> np.ndarray:
    """Columns of an operation given on basis states: ``fn(i)`` -> (j, amp) or [(j, amp), ...]."""
    out = np.zeros((2 ** nq, len(cols)), dtype=complex)
    for c, i in enumerate(cols):
        r = fn(i)
        for j, a in (r if isinstance(r, list) else [r]):
            out[j, c] += a
    return out


def dense(mat: np.ndarray) -> Callable[[dict, list[int]], np.ndarray]:
    return lambda p, cols: mat[:, cols]


def perm_oracle(n_total: int, fn: Callable[[int], tuple[int, complex]]) -> sim.Trusted:
    """Trusted semantics of a permutation-with-phases oracle on ``n_total`` qubits (+ its _dg)."""
    size = 2 ** n_total
    perm = np.empty(size, dtype=np.int64)
    ph = np.empty(size, dtype=complex)
    for i in range(size):
        perm[i], ph[i] = fn(i)
    return lambda op: ("perm", perm, ph)


def perm_oracle_dg(n_total: int, fn: Callable[[int], tuple[int, complex]]) -> sim.Trusted:
    size = 2 ** n_total
    perm = np.empty(size, dtype=np.int64)
    ph = np.empty(size, dtype=complex)
    for i in range(size):
        j, a = fn(i)
        perm[j], ph[j] = i, np.conj(a)
    return lambda op: ("perm", perm, ph)


def state_pred(fn: Callable[[dict, np.ndarray], tuple[bool, float, str]]):
    return fn


def grid(**ranges: Any) -> list[dict[str, Any]]:
    """Cartesian product of value lists, in order."""
    keys = list(ranges)
    out: list[dict[str, Any]] = [{}]
    for k in keys:
        out = [dict(d, **{k: v}) for d in out for v in ranges[k]]
    return out


#: helpers shared by the reference solutions (only permitted imports; prepended to their code)
REF_LIB = '''
import math
from qiskit import QuantumCircuit
from qiskit.circuit.library.standard_gates import PhaseGate, XGate, RYGate, HGate, SwapGate


def _ctrl(qc, gate, controls, targets, ctrl_state=None):
    controls = list(controls)
    if not controls:
        qc.append(gate, list(targets))
    else:
        qc.append(gate.control(len(controls), ctrl_state=ctrl_state, annotated=False),
                  controls + list(targets))


def qft_noswap(qc, qs):
    """QFT on register qs (little-endian) without the final reversal: Fourier bit j ends on qs[-1-j]."""
    k = len(qs)
    for j in reversed(range(k)):
        qc.h(qs[j])
        for i in reversed(range(j)):
            qc.cp(math.pi / 2 ** (j - i), qs[i], qs[j])


def qft(qc, qs):
    qft_noswap(qc, qs)
    for i in range(len(qs) // 2):
        qc.swap(qs[i], qs[len(qs) - 1 - i])


def add_const(qc, qs, terms):
    """Register qs += sum of values (mod 2**len(qs)); terms: [(value, controls), ...]."""
    k = len(qs)
    terms = [(v % 2 ** k, list(c)) for v, c in terms if v % 2 ** k]
    if not terms:
        return
    t = QuantumCircuit(qc.num_qubits)
    qft_noswap(t, qs)
    qc.compose(t, inplace=True)
    for value, controls in terms:
        for j in range(k):
            ang = (2 * math.pi * value * 2 ** j / 2 ** k) % (2 * math.pi)
            if ang:
                _ctrl(qc, PhaseGate(ang), controls, [qs[k - 1 - j]])
    qc.compose(t.inverse(), inplace=True)


def mod_add(qc, low, top, a, L, controls=()):
    """(low, top=0) holding v < L -> v + a mod L (a < L); all steps under controls."""
    n = len(low)
    full = list(low) + [top]
    c = list(controls)
    add_const(qc, full, [((a - L) % 2 ** (n + 1), c)])
    add_const(qc, list(low), [(L % 2 ** n, c + [top])])
    add_const(qc, full, [((-a) % 2 ** (n + 1), c)])
    _ctrl(qc, XGate(), c, [top])
    add_const(qc, list(low), [(a, c)])


def mod_mul_add(qc, xs, low, top, a, L, controls=()):
    """y += a*x mod L for x in register xs (x < L, y < L)."""
    for j, xq in enumerate(xs):
        aj = (a * 2 ** j) % L
        if aj:
            mod_add(qc, low, top, aj, L, list(controls) + [xq])


def mod_mul(qc, xs, low, top, a, L, controls=()):
    """x -> a*x mod L in register xs, with (low, top) a zero workspace of len(xs) + 1 qubits."""
    mod_mul_add(qc, xs, low, top, a, L, controls)
    for u, v in zip(xs, low):
        _ctrl(qc, SwapGate(), controls, [u, v])
    mod_mul_add(qc, xs, low, top, L - pow(a, -1, L), L, controls)


def increment(qc, qs, controls=()):
    for i in reversed(range(1, len(qs))):
        _ctrl(qc, XGate(), list(controls) + list(qs[:i]), [qs[i]])
    _ctrl(qc, XGate(), list(controls), [qs[0]])
'''
