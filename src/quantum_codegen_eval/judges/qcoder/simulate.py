"""Trusted circuit analysis for the QCoder judge: inline, classify, measure depth, simulate.

Runs in the judge's trusted stage on circuits read back from the sandbox. Every instruction is
expanded to *leaves*: a standard gate or an oracle gate, possibly under extra controls (from a
controlled user-defined gate or a ``ControlModifier``), a dense block (a non-integer power), or a
controlled global phase. Expansion follows Qiskit's semantics exactly: user-defined gates by
their definitions, ``ControlledGate`` as its base gate on the control subspace,
``AnnotatedOperation`` modifiers applied in list order (the first modifier wraps the base
first). Oracle gates are recognised by their (per-run) name and always get the judge's own
semantics; whatever definition travels with them is ignored.

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
import math
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
#: most qubits a dense block (a non-integer power of a composite) may span
MAX_DENSE_QUBITS = 10
#: deepest nesting of definitions / modifiers the judge follows
MAX_NESTING = 64


class SimError(Exception):
    """A circuit the judge cannot evaluate: past one of the judge's own limits (no ``status``:
    a judge limit, never the program's verdict), or the program's failure (``status``: an
    unbound or non-finite parameter is RE, resets leaving a random state WA, ...)."""

    def __init__(self, message: str, status: str | None = None):
        super().__init__(message)
        self.status = status

    @property
    def judge_limit(self) -> bool:
        return self.status is None


#: trusted semantics of an oracle gate: op -> ("dense", matrix) or ("perm", perm, phases)
Trusted = Callable[[Any], tuple]


@dataclass(frozen=True)
class Oracle:
    """An oracle gate as the judge knows it: width, number of parameters, semantics."""

    num_qubits: int
    num_params: int
    semantics: Trusted
    query: bool = True  # counted towards the problem's query limit


@dataclass
class Prim:
    """One leaf: ``op`` (standard or oracle gate) on ``qubits``, under ``controls``.

    ``op is None``: a dense block ``matrix`` on ``qubits``, or (``matrix is None``) the phase
    ``e^{i phase}`` on the control subspace. A dense block (a non-integer power ``p``) keeps the
    leaves it was computed from (``parts``) and ``reps = ceil(|p|)``: its depth is theirs times
    ``reps``, and the banned-gate check looks into them.
    """

    op: Any
    qubits: tuple[int, ...]
    controls: tuple[tuple[int, int], ...] = ()  # (qubit, required bit)
    matrix: np.ndarray | None = None
    phase: float = 0.0
    parts: tuple[Prim, ...] = ()
    reps: int = 1

    @property
    def wires(self) -> tuple[int, ...]:
        return tuple(q for q, _ in self.controls) + self.qubits


@dataclass
class Flat:
    """A circuit expanded to leaves."""

    num_qubits: int
    ops: list[Prim] = field(default_factory=list)
    global_phase: float = 0.0
    violations: list[str] = field(default_factory=list)  # UGE reasons, in order
    queries: int = 0


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


def _float(x: Any, what: str) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError) as exc:
        raise SimError(f"{what} {x} is not a number (unbound parameter?)", "RE") from exc
    if not math.isfinite(v):
        raise SimError(f"{what} is {v}", "RE")
    return v


class _Expander:
    def __init__(self, flat: Flat, oracles: dict[str, Oracle], max_ops: int,
                 allow_reset: bool = False):
        self.flat, self.oracles, self.max_ops = flat, oracles, max_ops
        self.allow_reset = allow_reset
        self.count = 0

    def bad(self, why: str) -> tuple[list[Prim], float]:
        self.flat.violations.append(why)
        return [], 0.0

    def grow(self, n: int) -> None:
        self.count += n
        if self.count > self.max_ops:
            raise SimError(f"circuit has more than {self.max_ops} gates")

    def circuit(self, circ: Any, qmap: Sequence[int], level: int) -> tuple[list[Prim], float]:
        if level > MAX_NESTING:
            raise SimError(f"definitions nested deeper than {MAX_NESTING}")
        leaves: list[Prim] = []
        phase = _float(circ.global_phase, "global phase")
        if circ.num_clbits:
            self.bad(f"classical bits ({circ.num_clbits}) in the circuit")
        for inst in circ.data:
            qubits = tuple(qmap[circ.find_bit(q).index] for q in inst.qubits)
            sub, ph = self.op(inst.operation, qubits, level + 1)
            leaves += sub
            phase += ph
        return leaves, phase

    def op(self, op: Any, qubits: tuple[int, ...], level: int) -> tuple[list[Prim], float]:
        from qiskit.circuit import Barrier, ControlledGate, Gate, Instruction
        from qiskit.circuit.annotated_operation import AnnotatedOperation

        name = getattr(op, "name", "")
        if name in self.oracles:
            o = self.oracles[name]
            if op.num_qubits != o.num_qubits or len(op.params) != o.num_params:
                return self.bad(f"{name} (a gate named like the oracle, on {op.num_qubits} qubits "
                                f"with {len(op.params)} parameters)")
            self.grow(1)
            self.flat.queries += o.query
            return [Prim(op, qubits)], 0.0
        if isinstance(op, Barrier):
            return [], 0.0
        if isinstance(op, AnnotatedOperation):
            return self.annotated(op, qubits, level)
        cls = getattr(op, "_qcoder_class", None) or type(op).__name__  # (transport's unknowns)
        if _class_name(op) == "Reset" and self.allow_reset and op.num_qubits == 1:
            self.grow(1)
            return [Prim(op, qubits)], 0.0
        if name in NON_GATE or cls in BLOCK_CLASSES:
            return self.bad(f"{name} ({cls})")
        if getattr(op, "num_clbits", 0):
            return self.bad(f"{name} ({type(op).__name__}, uses classical bits)")
        if _is_standard(op):
            self.grow(1)
            return [Prim(op, qubits)], 0.0
        if isinstance(op, ControlledGate):
            nc = op.num_ctrl_qubits
            base = op.base_gate
            if base is None or base.num_qubits + nc != op.num_qubits:
                return self.bad(f"{name} (a controlled gate whose base does not fit)")
            sub, ph = self.op(base, qubits[nc:], level + 1)
            return self.control(sub, ph, qubits[:nc], op.ctrl_state)
        if type(op) in (Gate, Instruction):
            if op.definition is None:
                return self.bad(f"{name} ({cls}, opaque: no definition)")
            return self.circuit(op.definition, qubits, level + 1)
        return self.bad(f"{name} ({type(op).__name__})")

    def control(self, leaves: list[Prim], phase: float, ctrl: Sequence[int], state: int,
                ) -> tuple[list[Prim], float]:
        if any(is_reset(p) for p in leaves):
            return self.bad("reset (Reset) under a control")
        pairs = tuple((q, (state >> j) & 1) for j, q in enumerate(ctrl))
        out = [Prim(p.op, p.qubits, pairs + p.controls, p.matrix, p.phase, p.parts, p.reps)
               for p in leaves]
        if phase:
            self.grow(1)
            out.append(Prim(None, (), pairs, None, phase))
        return out, 0.0

    def annotated(self, op: Any, qubits: tuple[int, ...], level: int) -> tuple[list[Prim], float]:
        from qiskit.circuit.annotated_operation import (
            ControlModifier,
            InverseModifier,
            PowerModifier,
        )

        base = op.base_op
        pos = len(qubits) - base.num_qubits
        if pos < 0:
            return self.bad("annotated operation whose base does not fit")
        leaves, phase = self.op(base, qubits[pos:], level + 1)
        for mod in op.modifiers:
            if isinstance(mod, InverseModifier):
                leaves, phase = self.inverse(leaves), -phase
            elif isinstance(mod, ControlModifier):
                c = mod.num_ctrl_qubits
                if c > pos:
                    return self.bad("annotated operation with more controls than qubits")
                leaves, phase = self.control(leaves, phase, qubits[pos - c:pos], mod.ctrl_state)
                pos -= c
            elif isinstance(mod, PowerModifier):
                p = _float(mod.power, "power")
                if p == int(p):
                    k = int(p)
                    if k < 0:
                        leaves, phase, k = self.inverse(leaves), -phase, -k
                    self.grow(len(leaves) * max(k - 1, 0))
                    self.flat.queries += self.queries_in(leaves) * max(k - 1, 0) \
                        - (self.queries_in(leaves) if k == 0 else 0)
                    leaves, phase = leaves * k, phase * k
                else:
                    if self.queries_in(leaves):
                        return self.bad(f"a non-integer power ({p}) of the oracle")
                    if any(is_reset(x) for x in leaves):
                        return self.bad(f"reset (Reset) in a non-integer power ({p})")
                    span = qubits[pos:]
                    m = self.dense(leaves, phase, span)
                    from qiskit.quantum_info import Operator

                    leaves, phase = [Prim(None, span, (), Operator(m).power(p).data,
                                          parts=tuple(leaves), reps=math.ceil(abs(p)))], 0.0
            else:
                return self.bad(f"annotated operation with modifier {type(mod).__name__}")
        return leaves, phase

    def queries_in(self, leaves: list[Prim]) -> int:
        return sum(1 for p in leaves if p.op is not None and p.op.name in self.oracles
                   and self.oracles[p.op.name].query)

    def inverse(self, leaves: list[Prim]) -> list[Prim]:
        from qiskit.circuit import Gate

        out = []
        for p in reversed(leaves):
            if is_reset(p):  # not invertible: refused like any non-gate
                self.flat.violations.append("reset (Reset) inverted")
                continue
            if p.op is None:
                m = None if p.matrix is None else p.matrix.conj().T
                out.append(Prim(None, p.qubits, p.controls, m, -p.phase, p.parts, p.reps))
            elif p.op.name in self.oracles:
                name = p.op.name
                inv = name[:-3] if name.endswith("_dg") else name + "_dg"
                if inv not in self.oracles:
                    raise SimError(f"the judge has no inverse for {name}")
                out.append(Prim(Gate(inv, p.op.num_qubits, list(p.op.params)), p.qubits, p.controls))
            else:
                out.append(Prim(_inverse_gate(p.op), p.qubits, p.controls))
        return out

    def dense(self, leaves: list[Prim], phase: float, span: Sequence[int]) -> np.ndarray:
        k = len(span)
        if k > MAX_DENSE_QUBITS:
            raise SimError(f"a non-integer power on {k} qubits (the judge computes up to "
                           f"{MAX_DENSE_QUBITS})")
        index = {q: i for i, q in enumerate(span)}
        local = Flat(k, [Prim(p.op, tuple(index[q] for q in p.qubits),
                              tuple((index[q], b) for q, b in p.controls), p.matrix, p.phase)
                         for p in leaves], phase)
        return simulate(local, k, range(2 ** k), self.oracles)


def _inverse_gate(op: Any) -> Any:
    """``op.inverse()``, keeping the fourth parameter of a ``UGate`` that is the base of
    ``CUGate(...).control()`` (``UGate.inverse`` drops it: the phase ``gamma`` would be lost)."""
    inv = op.inverse()
    if type(op).__name__ == "UGate" and len(op.params) == 4:
        inv = inv.to_mutable()
        inv.params = [*inv.params, -_float(op.params[3], "parameter of u")]
    return inv


def walk(ops: Sequence[Prim], controlled: bool = False):
    """Every leaf with whether it acts under controls, looking into dense blocks' parts."""
    for p in ops:
        yield p, controlled or bool(p.controls)
        if p.parts:
            yield from walk(p.parts, controlled or bool(p.controls))


def _class_name(op: Any) -> str:
    """The class of ``op`` as the checker names it (Qiskit's, not its singleton subclass's;
    the transport's for an instruction it could only carry by name)."""
    return getattr(op, "_qcoder_class", None) or getattr(op, "base_class", type(op)).__name__


def is_reset(p: Prim) -> bool:
    """A ``reset`` leaf (kept only when ``inline(..., allow_reset=True)``)."""
    return p.op is not None and _class_name(p.op) == "Reset"


def inline(circuit: Any, oracles: dict[str, Oracle], *, max_ops: int = 200_000,
           allow_reset: bool = False) -> Flat:
    """Expand ``circuit`` to leaves; record UGE reasons and count oracle queries.
    ``allow_reset``: a ``reset`` (not under a control, inverse or fractional power) is a leaf
    (state preparation from the zero state; see ``simulate``), else it is UGE."""
    flat = Flat(circuit.num_qubits)
    ex = _Expander(flat, oracles, max_ops, allow_reset)
    leaves, phase = ex.circuit(circuit, list(range(circuit.num_qubits)), 0)
    flat.ops, flat.global_phase = leaves, phase
    return flat


def depth(flat: Flat) -> int:
    """Circuit depth of the expanded circuit: every leaf one layer over its wires; a dense
    block (a non-integer power) the depth of the leaves it was computed from, times
    ``ceil(|power|)``, over all its wires (a power does not make a circuit shallower)."""
    level = [0] * flat.num_qubits
    best = 0
    for p in flat.ops:
        wires = p.wires
        if not wires:
            continue
        layers = 1
        if p.parts:
            layers = max(1, depth(Flat(flat.num_qubits, list(p.parts)))) * p.reps
        d = layers + max(level[q] for q in wires)
        for q in wires:
            level[q] = d
        best = max(best, d)
    return best


# --------------------------------------------------------------------------- simulation

_MAT_CACHE: dict[tuple, tuple[np.ndarray, bool] | None] = {}


def _matrix(op: Any) -> tuple[np.ndarray, bool] | None:
    params = tuple(_float(p, f"parameter of {op.name}") for p in op.params)
    key = (type(op).__name__, op.name, params, getattr(op, "ctrl_state", None))
    hit = _MAT_CACHE.get(key, False)
    if hit is False:
        try:
            if type(op).__name__ == "UGate" and len(params) == 4:
                # the base of CUGate(...).control(): U(theta, phi, lam) with CUGate's gamma
                from qiskit.circuit.library import UGate

                m = cmath.exp(1j * params[3]) * np.asarray(UGate(*params[:3]).to_matrix(), complex)
            else:
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


def _restrict(view: np.ndarray, axes: list[int], controls: Sequence[tuple[int, int]],
              ) -> tuple[np.ndarray, list[int]]:
    """The sub-array where each control axis holds its bit, and ``axes`` renumbered in it."""
    idx: list[Any] = [slice(None)] * view.ndim
    for ax, bit in controls:
        idx[ax] = bit
    removed = sorted(ax for ax, _ in controls)
    return view[tuple(idx)], [a - sum(1 for r in removed if r < a) for a in axes]


def _peelable(op: Any) -> bool:
    from qiskit.circuit import ControlledGate

    return (isinstance(op, ControlledGate) and type(op).__name__ != "CUGate"
            and op.base_gate is not None
            and op.base_gate.num_qubits + op.num_ctrl_qubits == op.num_qubits)


def _apply(view: np.ndarray, op: Any, axes: list[int], oracles: dict[str, Oracle]) -> None:
    name = op.name
    if name in oracles:
        sem = oracles[name].semantics(op)
        if sem[0] == "dense":
            _apply_dense(view, sem[1], axes, False)
        else:
            _apply_perm(view, sem[1], sem[2], axes)
        return
    peel = _peelable(op)
    if not peel:
        hit = _matrix(op)
        if hit is not None:
            _apply_dense(view, hit[0], axes, hit[1])
            return
    if peel:
        nc = op.num_ctrl_qubits
        sub, targets = _restrict(view, axes[nc:], [(axes[j], (op.ctrl_state >> j) & 1)
                                                   for j in range(nc)])
        _apply(sub, op.base_gate, targets, oracles)
        return
    if op.definition is not None:
        d = op.definition
        for inst in d.data:
            _apply(view, inst.operation, [axes[d.find_bit(q).index] for q in inst.qubits], oracles)
        gp = _float(d.global_phase, f"global phase of {name}")
        if gp:
            view *= cmath.exp(1j * gp)
        return
    raise SimError(f"cannot simulate gate {name}")


#: most distinct outcomes a circuit with resets may branch into (each reset of an entangled
#: qubit can double them; equal ones are merged)
MAX_BRANCHES = 16


def _reset_branches(state: np.ndarray, qubit: int) -> list[tuple[float, np.ndarray]]:
    """``reset`` of ``qubit`` (one column): the normalised outcomes with their probabilities, as
    a statevector simulator draws them (measure, then flip to |0>)."""
    moved = np.moveaxis(state, qubit, 0)
    out = []
    for bit in (0, 1):
        part = moved[bit]
        prob = float(np.vdot(part, part).real)
        if prob > 1e-12:
            new = np.zeros_like(moved)
            new[0] = part / math.sqrt(prob)
            out.append((prob, np.moveaxis(new, 0, qubit)))
    return out


def _merge(branches: list[tuple[float, np.ndarray]]) -> list[tuple[float, np.ndarray]]:
    """Branches equal up to a global phase are one (the first one's phase is kept)."""
    out: list[tuple[float, np.ndarray]] = []
    for w, st in branches:
        for k, (w2, st2) in enumerate(out):
            if abs(abs(np.vdot(st2, st)) - 1) < 1e-10:
                out[k] = (w2 + w, st2)
                break
        else:
            out.append((w, st))
    return out


def _step(state: np.ndarray, p: Prim, oracles: dict[str, Oracle]) -> None:
    view, axes = (_restrict(state, list(p.qubits), p.controls) if p.controls
                  else (state, list(p.qubits)))
    if p.op is not None:
        _apply(view, p.op, axes, oracles)
    elif p.matrix is not None:
        _apply_dense(view, p.matrix, axes, False)
    else:
        view *= cmath.exp(1j * p.phase)


def _with_resets(flat: Flat, state: np.ndarray, oracles: dict[str, Oracle]) -> np.ndarray:
    """One column through a circuit with resets: every outcome a statevector simulator may draw
    is followed; the result is that state when all outcomes agree up to a global phase (the
    phase of the most likely first outcome is kept), else the program's WA: the circuit does
    not prepare one pure state."""
    branches = [(1.0, state[..., 0])]
    for p in flat.ops:
        if is_reset(p):
            branches = _merge([(w * pw, st) for w, b in branches
                               for pw, st in _reset_branches(b, p.qubits[0])])
            if len(branches) > MAX_BRANCHES:
                raise SimError(f"the resets leave more than {MAX_BRANCHES} different states")
            continue
        for _, b in branches:
            _step(b, p, oracles)
    if len(branches) > 1:
        raise SimError("the circuit's resets act on entangled qubits: the outcome is random "
                       f"({len(branches)} different states), not the one state asked for", "WA")
    return branches[0][1][..., None]


def simulate(flat: Flat, num_qubits: int, columns: Sequence[int], oracles: dict[str, Oracle],
             *, max_qubits: int = 17) -> np.ndarray:
    """The circuit applied to basis states ``columns``: array (2**n, len(columns)), Qiskit order."""
    n = num_qubits
    if n > max_qubits:
        raise SimError(f"{n} qubits is more than the judge simulates ({max_qubits})")
    cols = np.asarray(list(columns), dtype=np.int64)
    state = np.zeros((2,) * n + (len(cols),), dtype=complex)
    bits = tuple(((cols >> q) & 1) for q in range(n))
    state[bits + (np.arange(len(cols)),)] = 1.0
    if any(is_reset(p) for p in flat.ops):
        if len(cols) != 1:
            raise SimError("reset is only simulated from one input state", "UGE")
        state = _with_resets(flat, state, oracles)
    else:
        for p in flat.ops:
            _step(state, p, oracles)
    if flat.global_phase:
        state *= cmath.exp(1j * flat.global_phase)
    return np.transpose(state, tuple(range(n - 1, -1, -1)) + (n,)).reshape(2 ** n, len(cols))
