"""Trusted circuit analysis for the QCoder judge: inline, classify, measure depth, simulate.

Runs in the parent process on circuits read back from the sandbox (QPY). Gates are applied to a
batch of basis-state columns with numpy; named oracle gates (``qcoder_*``) are replaced by the
judge's own semantics, whatever definition the program attached to them.

>>> from qiskit import QuantumCircuit
>>> qc = QuantumCircuit(2); _ = qc.h(0); _ = qc.cx(0, 1)
>>> flat = inline(qc, {})
>>> depth(flat), [p.op.name for p in flat.ops]
(2, ['h', 'cx'])
>>> out = simulate(flat, 2, [0], {})
>>> [round(float(abs(a)) ** 2, 3) for a in out[:, 0]]
[0.5, 0.0, 0.0, 0.5]
"""

from __future__ import annotations

import cmath
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: instructions that are never gates: UGE wherever they appear
NON_GATE = {"measure", "reset", "initialize", "delay", "store"}
#: library blocks that are not built from gates (custom unitary blocks): UGE
BLOCK_CLASSES = {"UnitaryGate", "StatePreparation", "Isometry", "HamiltonianGate", "Diagonal",
                 "DiagonalGate", "UCGate", "UCPauliRotGate", "UCRXGate", "UCRYGate", "UCRZGate",
                 "PermutationGate", "LinearFunction", "Clifford", "PauliGate", "MCMTGate",
                 "PauliEvolutionGate", "Initialize"}


class SimError(Exception):
    """A circuit the judge cannot evaluate (unbound parameter, too large, ...)."""


#: trusted semantics of a named gate: ("dense", matrix) or ("perm", perm, phases)
Trusted = Callable[[Any], tuple]


@dataclass
class Prim:
    op: Any
    qubits: tuple[int, ...]


@dataclass
class Flat:
    """A circuit inlined down to standard gates, controlled gates and trusted oracle gates."""

    num_qubits: int
    ops: list[Prim] = field(default_factory=list)
    global_phase: float = 0.0
    violations: list[str] = field(default_factory=list)  # UGE reasons, in order


_STANDARD: tuple[type, ...] | None = None


def _is_standard(op: Any) -> bool:
    """An instance of a gate class exported by ``qiskit.circuit.library.standard_gates``."""
    global _STANDARD
    if _STANDARD is None:
        import qiskit.circuit.library.standard_gates as sg
        from qiskit.circuit import Gate

        _STANDARD = tuple(c for c in vars(sg).values()
                          if isinstance(c, type) and issubclass(c, Gate) and c.__module__
                          and c.__module__.startswith("qiskit.circuit.library.standard_gates"))
    return isinstance(op, _STANDARD)


def _kind(op: Any, trusted: dict[str, Trusted]) -> str:
    from qiskit.circuit import Barrier, ControlledGate, Gate, Instruction

    name = getattr(op, "name", "")
    if name in trusted:
        return "trusted"
    if isinstance(op, Barrier):
        return "directive"
    if name in NON_GATE or type(op).__name__ in BLOCK_CLASSES:
        return "bad"
    if _is_standard(op):
        return "standard"
    if isinstance(op, ControlledGate):
        base = _kind(op.base_gate, trusted)
        return "controlled" if base in ("standard", "trusted", "controlled") else (
            "composite" if base == "composite" else "bad")
    if type(op) in (Gate, Instruction) and op.definition is not None and not op.num_clbits:
        return "composite"
    return "bad"


def inline(circuit: Any, trusted: dict[str, Trusted], *, max_ops: int = 200_000) -> Flat:
    """Inline user-defined composite gates; record UGE reasons for non-gate instructions."""
    flat = Flat(circuit.num_qubits)
    if circuit.num_clbits:
        flat.violations.append(f"classical bits ({circuit.num_clbits}) in the circuit")
    _inline_into(flat, circuit, list(range(circuit.num_qubits)), trusted, max_ops)
    flat.global_phase += _float(circuit.global_phase, "global phase")
    return flat


def _float(x: Any, what: str) -> float:
    try:
        return float(x)
    except (TypeError, ValueError) as exc:
        raise SimError(f"{what} {x} is not a number (unbound parameter?)") from exc


def _deannotate(op: Any) -> Any:
    """``AnnotatedOperation`` (newer Qiskit's ``.control()``/``.inverse()``) -> plain gate."""
    from qiskit.circuit.annotated_operation import ControlModifier, InverseModifier

    base = op.base_op
    for mod in reversed(op.modifiers):  # modifiers apply innermost first
        if isinstance(mod, ControlModifier):
            base = base.control(mod.num_ctrl_qubits, ctrl_state=mod.ctrl_state, annotated=False)
        elif isinstance(mod, InverseModifier):
            base = base.inverse()
        else:
            return op
    return base


def _inline_into(flat: Flat, circuit: Any, qmap: list[int], trusted, max_ops: int) -> None:
    for inst in circuit.data:
        op = inst.operation
        if type(op).__name__ == "AnnotatedOperation":
            op = _deannotate(op)
        qubits = tuple(qmap[circuit.find_bit(q).index] for q in inst.qubits)
        kind = _kind(op, trusted)
        if kind == "directive":
            continue
        if kind == "bad":
            flat.violations.append(f"{op.name} ({type(op).__name__})")
            continue
        if kind == "composite":
            sub = op.definition
            if sub is None:
                flat.violations.append(f"{op.name} (opaque gate without definition)")
                continue
            _inline_into(flat, sub, list(qubits), trusted, max_ops)
            flat.global_phase += _float(sub.global_phase, f"global phase of {op.name}")
            continue
        flat.ops.append(Prim(op, qubits))
        if len(flat.ops) > max_ops:
            raise SimError(f"circuit has more than {max_ops} gates")


def depth(flat: Flat) -> int:
    """Circuit depth of the inlined circuit (``QuantumCircuit.depth()`` of the same gates)."""
    level = [0] * flat.num_qubits
    best = 0
    for p in flat.ops:
        if not p.qubits:
            continue
        d = 1 + max(level[q] for q in p.qubits)
        for q in p.qubits:
            level[q] = d
        best = max(best, d)
    return best


def count(flat: Flat, names: Sequence[str]) -> int:
    """How many inlined gates (controlled or not) are one of ``names``."""
    n = 0
    for p in flat.ops:
        name = p.op.base_gate.name if hasattr(p.op, "base_gate") and p.op.name not in names \
            else p.op.name
        n += name in names
    return n


# --------------------------------------------------------------------------- simulation

_MAT_CACHE: dict[tuple, tuple[np.ndarray, bool]] = {}


def _matrix(op: Any) -> tuple[np.ndarray, bool] | None:
    params = tuple(_float(p, f"parameter of {op.name}") for p in op.params)
    key = (type(op).__name__, op.name, params, getattr(op, "ctrl_state", None))
    hit = _MAT_CACHE.get(key, False)
    if hit is False:
        try:
            m = np.asarray(op.to_matrix(), dtype=complex)
            hit = (m, not np.count_nonzero(m - np.diag(np.diag(m))))
        except Exception:  # noqa: BLE001 - no matrix: the caller uses control/definition
            hit = None
        if len(_MAT_CACHE) < 5000:
            _MAT_CACHE[key] = hit
    return hit


def _apply_dense(view: np.ndarray, m: np.ndarray, axes: Sequence[int], diag: bool) -> None:
    k = len(axes)
    if k == 1:
        ax = axes[0]
        i0 = (slice(None),) * ax + (0,)
        i1 = (slice(None),) * ax + (1,)
        if not diag and m[0, 0] == 0 and m[1, 1] == 0 and m[0, 1] == 1 and m[1, 0] == 1:
            a0 = view[i0].copy()
            view[i0] = view[i1]
            view[i1] = a0
            return
        if diag:
            if m[0, 0] != 1:
                view[i0] *= m[0, 0]
            if m[1, 1] != 1:
                view[i1] *= m[1, 1]
            return
        a0 = view[i0].copy()
        a1 = view[i1]
        view[i0] = m[0, 0] * a0 + m[0, 1] * a1
        view[i1] = m[1, 0] * a0 + m[1, 1] * a1
        return
    rev = [axes[k - 1 - j] for j in range(k)]  # most significant gate qubit first
    moved = np.moveaxis(view, rev, range(k))
    shape = moved.shape
    out = m @ moved.reshape(2 ** k, -1)
    view[...] = np.moveaxis(out.reshape(shape), range(k), rev)


def _apply_perm(view: np.ndarray, perm: np.ndarray, phases: np.ndarray, axes: Sequence[int]) -> None:
    k = len(axes)
    rev = [axes[k - 1 - j] for j in range(k)]
    moved = np.moveaxis(view, rev, range(k))
    shape = moved.shape
    flat = moved.reshape(2 ** k, -1)
    out = np.empty_like(flat)
    out[perm] = phases[:, None] * flat
    view[...] = np.moveaxis(out.reshape(shape), range(k), rev)


def _apply(view: np.ndarray, op: Any, axes: list[int], trusted: dict[str, Trusted]) -> None:
    from qiskit.circuit import ControlledGate

    name = op.name
    if name in trusted:
        sem = trusted[name](op)
        if sem[0] == "dense":
            _apply_dense(view, sem[1], axes, False)
        else:
            _apply_perm(view, sem[1], sem[2], axes)
        return
    controlled = isinstance(op, ControlledGate) and type(op).__name__ != "CUGate"
    if _is_standard(op) and not controlled:
        hit = _matrix(op)
        if hit is not None:
            _apply_dense(view, hit[0], axes, hit[1])
            return
    if controlled or isinstance(op, ControlledGate):
        nc = op.num_ctrl_qubits
        state = op.ctrl_state
        idx: list[Any] = [slice(None)] * view.ndim
        ctrl_axes = axes[:nc]
        for j, ax in enumerate(ctrl_axes):
            idx[ax] = (state >> j) & 1
        sub = view[tuple(idx)]
        removed = sorted(ctrl_axes)
        targets = [a - sum(1 for r in removed if r < a) for a in axes[nc:]]
        _apply(sub, op.base_gate, targets, trusted)
        return
    if op.definition is not None:
        d = op.definition
        for inst in d.data:
            _apply(view, inst.operation, [axes[d.find_bit(q).index] for q in inst.qubits], trusted)
        gp = _float(d.global_phase, f"global phase of {name}")
        if gp:
            view *= cmath.exp(1j * gp)
        return
    raise SimError(f"cannot simulate gate {name}")


def simulate(flat: Flat, num_qubits: int, columns: Sequence[int], trusted: dict[str, Trusted],
             *, max_qubits: int = 17) -> np.ndarray:
    """The circuit applied to basis states ``columns``: array (2**n, len(columns)), Qiskit order."""
    n = num_qubits
    if n > max_qubits:
        raise SimError(f"{n} qubits is more than the judge simulates ({max_qubits})")
    cols = np.asarray(columns, dtype=np.int64)
    state = np.zeros((2,) * n + (len(cols),), dtype=complex)
    bits = tuple(((cols >> q) & 1) for q in range(n))
    state[bits + (np.arange(len(cols)),)] = 1.0
    for p in flat.ops:
        _apply(state, p.op, list(p.qubits), trusted)
    if flat.global_phase:
        state *= cmath.exp(1j * flat.global_phase)
    return np.transpose(state, tuple(range(n - 1, -1, -1)) + (n,)).reshape(2 ** n, len(cols))
