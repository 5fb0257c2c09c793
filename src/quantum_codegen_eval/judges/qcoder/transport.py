"""The fallback transport for circuits QPY cannot read back (``case_<i>.circ.json``).

Qiskit writes some valid circuits to QPY that it cannot load (``CUGate(...).control(1)``: the
controlled gate's base is a ``UGate`` carrying CUGate's fourth parameter). A judge-side limit must
not become the program's RE, so the harness then sends the circuit as a JSON tree instead:

``circuit = {"n", "c", "phase", "ops": [[op, [qubit indices]], ...]}`` and
``op = {"cls", "name", "n", "params": [floats], "nc", "state", "base": op, "mods": [...],
"def": circuit, "flags": [options QPY drops, e.g. "dirty_ancillas"]}`` (only the keys that apply).

This module rebuilds Qiskit objects from it on the trusted side, bounded and validated: only
standard gate classes are instantiated (by class name, with their own constructors), everything
else becomes a plain ``Gate``/``ControlledGate``/``AnnotatedOperation`` with the same structure,
or an ``Instruction`` whose unknown class the checker reports as UGE. Sizes, nesting, indices and
numbers are checked; anything off is a ``TransportError`` (RE for the program).

It is an extension of the one wire codec's rules (``judges/jobs/wire.py``): its error is a
``WireError`` and its bounds are the codec's ``Limits``, with the tree's own nesting (a Qiskit
definition may nest deeper than a value), byte and node budgets.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
from typing import Any

from ..jobs.wire import LIMITS, WireError

#: the circuit tree's bounds (``jobs/circuit_tree.py`` writes definitions up to this nesting)
TREE_LIMITS = dataclasses.replace(LIMITS, bytes=32 << 20, depth=64, items=400_000)
MAX_BYTES, MAX_NESTING, MAX_NODES = TREE_LIMITS.bytes, TREE_LIMITS.depth, TREE_LIMITS.items


class TransportError(WireError):
    """A malformed circuit tree (the wire codec's error)."""


def load(data: bytes, allowed_qubits: tuple[int, ...]) -> Any:
    if len(data) > MAX_BYTES:
        raise TransportError("the circuit tree is too large")
    try:
        tree = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise TransportError(f"the circuit tree is not JSON: {exc}") from None
    if not isinstance(tree, dict) or tree.get("n") not in allowed_qubits:
        n = tree.get("n") if isinstance(tree, dict) else None
        raise TransportError(f"the circuit has {n} qubits; expected {allowed_qubits[0]}")
    return _Reader().circuit(tree, 0)


class _Reader:
    def __init__(self) -> None:
        self.nodes = 0

    def count(self) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise TransportError(f"the circuit tree has more than {MAX_NODES} nodes")

    def circuit(self, d: Any, level: int) -> Any:
        from qiskit import QuantumCircuit

        if level > MAX_NESTING or not isinstance(d, dict):
            raise TransportError("malformed or too deeply nested circuit")
        n, c = _int(d.get("n"), 0, 64), _int(d.get("c", 0), 0, 1024)
        qc = QuantumCircuit(n, c) if c else QuantumCircuit(n)
        qc.global_phase = _num(d.get("phase", 0.0))
        ops = d.get("ops")
        if not isinstance(ops, list):
            raise TransportError("malformed circuit: no instruction list")
        for item in ops:
            self.count()
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], list)):
                raise TransportError("malformed instruction")
            op = self.op(item[0], level + 1)
            qubits = [_int(q, 0, n - 1) for q in item[1]]
            if len(qubits) != op.num_qubits or len(set(qubits)) != len(qubits):
                raise TransportError(f"instruction {op.name} on qubits {qubits}")
            qc._append(op, [qc.qubits[q] for q in qubits], [])
        return qc

    def op(self, d: Any, level: int) -> Any:
        from qiskit.circuit import ControlledGate, Gate, Instruction
        from qiskit.circuit.annotated_operation import (
            AnnotatedOperation,
            ControlModifier,
            InverseModifier,
            PowerModifier,
        )

        if level > MAX_NESTING or not isinstance(d, dict):
            raise TransportError("malformed or too deeply nested instruction")
        self.count()
        cls, name = str(d.get("cls", ""))[:100], str(d.get("name", ""))[:200]
        n = _int(d.get("n"), 0, 64)
        params = [_num(p) for p in (d.get("params") or [])][:16]
        if cls == "AnnotatedOperation":
            mods = []
            for m in d.get("mods") or []:
                if m == ["inv"]:
                    mods.append(InverseModifier())
                elif isinstance(m, list) and len(m) == 3 and m[0] == "ctrl":
                    c = _int(m[1], 1, 64)
                    mods.append(ControlModifier(c, ctrl_state=_int(m[2], 0, 2 ** c - 1)))
                elif isinstance(m, list) and len(m) == 2 and m[0] == "pow":
                    mods.append(PowerModifier(_num(m[1])))
                else:
                    raise TransportError("unknown modifier")
            op = AnnotatedOperation(self.op(d.get("base"), level + 1), mods)
        elif cls in _standard():
            op = _standard_gate(cls, params, d)
        elif cls == "ControlledGate":
            base = self.op(d.get("base"), level + 1)
            nc = _int(d.get("nc"), 1, 64)
            op = ControlledGate(name, n, params, num_ctrl_qubits=nc, base_gate=base,
                                ctrl_state=_int(d.get("state"), 0, 2 ** nc - 1))
        elif cls in ("Gate", "Instruction") and "def" in d:
            op = (Gate(name, n, params) if cls == "Gate"
                  else Instruction(name, n, 0, params))
            op.definition = self.circuit(d["def"], level + 1)
        else:  # anything else keeps its class name only: the checker decides (UGE)
            op = Instruction(name, n, _int(d.get("c", 0), 0, 1024), [])
            op._qcoder_class = cls
        if op.num_qubits != n:
            raise TransportError(f"{cls} {name}: {op.num_qubits} qubits, the tree says {n}")
        return op


_STANDARD: dict[str, type] | None = None


def _standard() -> dict[str, type]:
    global _STANDARD
    if _STANDARD is None:
        import qiskit.circuit.library.standard_gates as sg
        from qiskit.circuit import Gate

        _STANDARD = {c.__name__: c for c in vars(sg).values()
                     if isinstance(c, type) and issubclass(c, Gate)
                     and c.__module__.startswith("qiskit.circuit.library.standard_gates")}
    return _STANDARD


_NOT_PARAMS = ("self", "label", "ctrl_state", "num_ctrl_qubits", "_base_label", "_force_mutable",
               "duration", "unit", "dirty_ancillas", "relative_phase", "action_only")


def _standard_gate(cls: str, params: list[float], d: dict) -> Any:
    klass = _standard()[cls]
    sig = inspect.signature(klass.__init__).parameters
    kwargs: dict[str, Any] = {}
    if "num_ctrl_qubits" in sig:
        kwargs["num_ctrl_qubits"] = _int(d.get("nc"), 1, 64)
    if "ctrl_state" in sig and d.get("state") is not None:
        nc = kwargs.get("num_ctrl_qubits") or _int(d.get("nc"), 1, 64)
        kwargs["ctrl_state"] = _int(d.get("state"), 0, 2 ** nc - 1)
    for flag in d.get("flags") or []:  # MCXVChain(dirty_ancillas=True, relative_phase=True)
        if flag not in ("dirty_ancillas", "relative_phase", "action_only") or flag not in sig:
            raise TransportError(f"{cls} has no option {str(flag)[:50]!r}")
        kwargs[flag] = True
    # every parameter the constructor takes positionally, defaults included
    # (``XXMinusYYGate(theta, beta=0)`` carries both)
    positional = [p for p in sig if p not in _NOT_PARAMS
                  and sig[p].kind in (inspect.Parameter.POSITIONAL_ONLY,
                                      inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    extra = params[len(positional):]
    try:
        op = klass(*params[:len(positional)], **kwargs)
        if extra and cls == "UGate" and len(extra) == 1:  # CUGate(...).control()'s base
            op.params = [*op.params, extra[0]]
        elif extra or len(op.params) != len(params):
            raise TransportError(f"{cls} with {len(params)} parameters")
    except (TypeError, ValueError) as exc:
        raise TransportError(f"{cls} cannot be rebuilt: {exc}") from None
    return op


def _int(x: Any, lo: int, hi: int) -> int:
    if not isinstance(x, int) or isinstance(x, bool) or not lo <= x <= hi:
        raise TransportError(f"{x!r} is not an integer in [{lo}, {hi}]")
    return x


def _num(x: Any) -> float:
    if not isinstance(x, (int, float)) or isinstance(x, bool) or not math.isfinite(x):
        raise TransportError(f"{x!r} is not a finite number")
    return float(x)
