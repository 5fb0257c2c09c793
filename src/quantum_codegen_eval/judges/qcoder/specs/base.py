"""The spec type, its registry and the helpers the contest modules share.

A :class:`Spec` says how to test one problem: ``sample(rng)`` gives the test cases (solve()
arguments, plus hidden values such as an oracle's marked item), ``compare`` simulates the
returned circuit and checks it against a target built directly (numpy) from the statement.
Each spec carries its own reference solution (``reference``, a ``solve()`` the judge accepts) and
wrong solutions (``wrong``) that must get WA, as the text the judge receives: each is a module of
``judges/qcoder/programs/`` read by :func:`program`.
"""

from __future__ import annotations

import ast
import importlib.util
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import simulate as sim
from ..compare import compare_vectors, fidelity

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
        return self.judge(case, flat, nq, trusted)[:3]

    def judge(self, case: dict, flat: sim.Flat, nq: int, trusted: dict[str, sim.Oracle],
              ) -> tuple[bool, float, str, float | None]:
        """:meth:`compare` and the case's partial-credit fidelity (``compare.fidelity``; None
        for a problem judged by a predicate: it has no one target)."""
        p = case["args"]
        if self.mode == "state":
            out = sim.simulate(flat, nq, [0], trusted)[:, 0]
            if self.predicate:
                return (*self.predicate(p, out), None)
            target = self.target(p)
            return (*compare_vectors(out, target, self.counted), fidelity(out, target, self.counted))
        cols = list(self.columns(p)) if self.columns else list(range(2 ** nq))
        limit = min(max(1, MAX_AMPLITUDES >> nq), self.extra.get("max_columns", 1 << 30))
        if len(cols) > limit:
            # which inputs are tested is drawn with the judge's secret when it has one
            # (``check.cases_for``): a program cannot know them and hard-code just those
            key = case.get("sample_key") or repr(sorted(p.items(), key=str))
            cols = sorted(random.Random(key).sample(cols, limit))
        out = sim.simulate(flat, nq, cols, trusted)
        if self.predicate:
            return (*self.predicate(p, out), None)
        ref = self.target(p, cols)
        if self.mask is not None:
            rows = self.mask(p, nq)
            out, ref = out[rows], ref[rows]
        return (*compare_vectors(out, ref, self.counted), fidelity(out, ref, self.counted))


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


def program(name: str) -> str:
    """The text the judge runs for the program module ``judges/qcoder/programs/<name>.py``
    (``"qpc001.a1"``): the modules of this judge it imports (the reference libraries of ``jobs/``,
    a private part such as ``qpc003._w_quarter``; each after the ones it imports itself), then the
    module, read by :func:`library`."""
    return library(*_parts(f"programs.{name}"))


def _parts(module: str) -> list[str]:
    """``module`` after every module of this judge it imports (relatively), dependencies first."""
    out: list[str] = []
    for node in ast.parse(_library_source(module)).body:
        if isinstance(node, ast.ImportFrom) and node.level:
            for part in _parts(_resolve(module, node)):
                if part not in out:
                    out.append(part)
    return [*out, module]


def library(*names: str) -> str:
    """The text of one program made of the modules ``names`` of ``judges/qcoder/``, in order: a
    library of ``jobs/`` by its name (``ref_lib``, ``ref_w``, ...), any other module by its dotted
    path (``programs.qpc001.a1``). A program the judge runs is one file (the contest's rule), so
    the helpers it uses are part of its text; they are real modules so that a linter reads them.
    Left out: each module's docstring, and a later part's imports that an earlier part already made
    or that import a module of this judge (an earlier part)."""
    modules = [name if "." in name else f"jobs.{name}" for name in names]
    bound: set[str] = set()
    parts = []
    for k, module in enumerate(modules):
        source = _library_source(module)
        tree = ast.parse(source)
        drop: set[int] = set()
        for i, node in enumerate(tree.body):
            end = node.end_lineno or node.lineno
            if (i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                    and isinstance(node.value.value, str)):
                drop.update(range(node.lineno - 1, end))
            elif isinstance(node, ast.Import | ast.ImportFrom):
                made = {a.asname or a.name.split(".")[0] for a in node.names}
                if isinstance(node, ast.ImportFrom) and node.level:
                    if _resolve(module, node) not in modules[:k]:
                        raise ValueError(f"{module} imports {'.' * node.level}{node.module}, "
                                         "not an earlier part")
                elif not made <= bound:
                    bound |= made
                    continue
                drop.update(range(node.lineno - 1, end))
        lines = source.splitlines(keepends=True)
        text = "".join(line for i, line in enumerate(lines) if i not in drop)
        parts.append(text.strip("\n") + "\n")
    return "\n" + "\n\n".join(parts)


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """The module (dotted, from ``judges/qcoder/``) that ``module``'s relative import names."""
    package = module.split(".")[:-1]
    base = package[:len(package) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _library_source(module: str) -> str:
    spec = importlib.util.find_spec(f"{__package__.rpartition('.')[0]}.{module}")
    if spec is None or spec.origin is None:
        raise ImportError(f"no QCoder program module {module}")
    return Path(spec.origin).read_text(encoding="utf-8")
