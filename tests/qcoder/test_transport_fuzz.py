"""Every gate Qiskit can build reaches the trusted check with exactly its matrix.

Random circuits of every standard library gate, wrapped at random in ``control()`` (plain and
annotated, with a ``ctrl_state``), ``inverse()`` (plain and annotated), ``power()`` (integer,
plain and annotated), labels and custom gates with a global phase, go the way the harness sends
them (QPY when Qiskit reads it back as the same tree, else the JSON tree) and are simulated by the
trusted stage; the result must be ``Operator`` of the program's own circuit (tolerance 1e-9).
A ``power()`` Qiskit computes as a ``UnitaryGate`` is a custom block: UGE, on both transports.
"""

from __future__ import annotations

import inspect
import io
import json
import math
import random
import warnings

import numpy as np
import pytest
from qiskit import QuantumCircuit, qpy
from qiskit.circuit import Gate
from qiskit.circuit.library import standard_gates as sg
from qiskit.quantum_info import Operator

from quantum_codegen_eval.judges.qcoder import simulate as sim
from quantum_codegen_eval.judges.qcoder.jobs.circuit_tree import enc_circ  # the harness's writer
from quantum_codegen_eval.judges.qcoder.transport import load

N = 4
SKIP = {"GlobalPhaseGate"}  # no qubits: appended separately below


def _gate_classes() -> list[type]:
    out = []
    for name in sorted(dir(sg)):
        c = getattr(sg, name)
        if (isinstance(c, type) and issubclass(c, Gate) and name not in SKIP
                and c.__module__.startswith("qiskit.circuit.library.standard_gates")):
            out.append(c)
    return out


GATES = _gate_classes()


def _make(cls: type, rng: random.Random) -> Gate | None:
    sig = inspect.signature(cls.__init__).parameters
    args, kwargs = [], {}
    for p, spec in sig.items():
        if p in ("self", "label", "ctrl_state", "duration", "unit", "_base_label",
                 "_force_mutable") or spec.kind in (spec.VAR_POSITIONAL, spec.VAR_KEYWORD):
            continue
        if p == "num_ctrl_qubits":
            kwargs[p] = rng.randint(1, 2)
        elif spec.default is inspect.Parameter.empty:
            args.append(rng.uniform(-math.pi, math.pi))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # MCXRecursive & co.
            g = cls(*args, **kwargs)
    except (TypeError, ValueError):
        return None
    return g if g.num_qubits <= N - 1 else None


def _wrap(g: Gate, rng: random.Random, depth: int = 0):
    """``g`` under 0-2 random wrappers (control / inverse / power / label / custom gate)."""
    for _ in range(rng.randint(0, 2)):
        r = rng.random()
        annotated = rng.random() < 0.4
        if r < 0.3 and g.num_qubits < N:
            c = rng.randint(1, N - g.num_qubits)
            g = g.control(c, ctrl_state=rng.randrange(2 ** c), annotated=annotated)
        elif r < 0.55:
            g = g.inverse(annotated=annotated)
        elif r < 0.7:
            g = g.power(rng.choice([2, 3, -1, -2]), annotated=annotated)
        elif r < 0.8:
            sub = QuantumCircuit(g.num_qubits, global_phase=rng.uniform(-3, 3))
            sub.append(g, range(g.num_qubits))
            g = sub.to_gate(label=rng.choice([None, "my gate", "∑"]))
        else:
            try:
                g = g.to_mutable() if hasattr(g, "to_mutable") else g
                g.label = rng.choice(["lbl", "ü", ""]) or None
            except (AttributeError, TypeError):
                pass
    return g


def random_circuit(seed: int) -> QuantumCircuit:
    rng = random.Random(seed)
    qc = QuantumCircuit(N, global_phase=rng.uniform(-3, 3))
    while len(qc.data) < 12:
        g = _make(rng.choice(GATES), rng)
        if g is None:
            continue
        g = _wrap(g, rng)
        if g.num_qubits > N:
            continue
        qc.append(g, rng.sample(range(N), g.num_qubits))
    if rng.random() < 0.3:
        qc.append(sg.GlobalPhaseGate(rng.uniform(-3, 3)), [])
    return qc


def transported(qc: QuantumCircuit) -> list[tuple[str, QuantumCircuit]]:
    """The circuit as the trusted stage gets it: QPY when the harness would send QPY, and the
    JSON tree (the fallback) always."""
    out = []
    buf = io.BytesIO()
    qpy.dump(qc, buf)
    try:
        back = qpy.load(io.BytesIO(buf.getvalue()))[0]
        if enc_circ(back, 0) == enc_circ(qc, 0):
            out.append(("qpy", back))
    except Exception:  # noqa: BLE001 - what the harness sends as JSON instead
        pass
    out.append(("json", load(json.dumps(enc_circ(qc, 0)).encode(), (N,))))
    return out


def _has_block(qc: QuantumCircuit) -> bool:
    tree = json.dumps(enc_circ(qc, 0))
    return any(f'"cls": "{c}"' in tree for c in sim.BLOCK_CLASSES)


@pytest.mark.parametrize("seed", range(60))
def test_transported_circuit_has_the_programs_matrix(seed):
    qc = random_circuit(seed)
    want = Operator(qc).data
    blocked = _has_block(qc)
    for how, circ in transported(qc):
        flat = sim.inline(circ, {})
        if blocked:
            assert flat.violations, how
            continue
        assert not flat.violations, (how, flat.violations)
        got = sim.simulate(flat, N, range(2 ** N), {})
        assert np.abs(got - want).max() < 1e-9, how


def _custom(g: Gate) -> Gate:
    sub = QuantumCircuit(g.num_qubits, global_phase=0.37)
    sub.append(g, range(g.num_qubits))
    return sub.to_gate(label="custom ∑")


def _labelled(g: Gate) -> Gate:
    g = g.to_mutable()
    g.label = "lbl ü"
    return g


WRAPPERS = {
    "control": lambda g: g.control(1, ctrl_state=0),
    "control(annotated)": lambda g: g.control(1, annotated=True),
    "inverse": lambda g: g.inverse(),
    "inverse(annotated)": lambda g: g.inverse(annotated=True),
    "power(2)": lambda g: g.power(2),
    "power(-1, annotated)": lambda g: g.power(-1, annotated=True),
    "to_gate": _custom,
    "label": _labelled,
}


@pytest.mark.parametrize("cls", GATES, ids=lambda c: c.__name__)
def test_every_gate_under_every_pair_of_wrappers(cls):
    """Each library gate under each ordered pair of wrappers: the matrix survives transport."""
    rng = random.Random(cls.__name__)
    base = _make(cls, rng)
    if base is None:
        pytest.skip(f"{cls.__name__} does not fit {N} qubits")
    failures = []
    for first, f in WRAPPERS.items():
        for second, s in WRAPPERS.items():
            try:
                g = s(f(base))
            except Exception:  # noqa: BLE001 - a combination Qiskit itself refuses
                continue
            if g.num_qubits > N:
                continue
            qc = QuantumCircuit(N)
            qc.append(g, range(g.num_qubits))
            want = Operator(qc).data
            blocked = _has_block(qc)
            for how, circ in transported(qc):
                flat = sim.inline(circ, {})
                if blocked != bool(flat.violations):
                    failures.append((first, second, how, flat.violations))
                elif not blocked:
                    got = sim.simulate(flat, N, range(2 ** N), {})
                    if np.abs(got - want).max() > 1e-9:
                        failures.append((first, second, how, np.abs(got - want).max()))
    assert not failures, failures
