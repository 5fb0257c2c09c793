"""The circuit's trip, gate by gate: random circuits of the standard gates the rules permit
(``qiskit.circuit.library.standard_gates``), with ``control(k)`` (random ``ctrl_state``),
``inverse()``, ``power(x)``, their annotated variants and random parameters, are returned by a
program through the real QCoder pipeline (the harness in the sandbox, the QPY or JSON-tree
transport it picks, the trusted reader and simulator) and compared with ``Operator`` of the same
circuit built here, in the trusted process: zero mismatches, global phase included. The
reference is what Qiskit computes for the circuit the program returned, surprising or not
(``CUGate(...).control(1).inverse()`` drops γ: docs/benchmarks/qcoder.md)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from qcoder_session import recorded

from quantum_codegen_eval.judges.qcoder import QCoderJudge, check
from quantum_codegen_eval.judges.qcoder import simulate as sim
from quantum_codegen_eval.judges.qcoder.jobs import harness
from quantum_codegen_eval.judges.qcoder.static import library_names

pytestmark = pytest.mark.upstream

#: QPC001_A2 asks solve(n) for n = 1..10: each n returns another random circuit on n qubits
SIZES = range(2, 8)
PROGRAMS = 8
GATES_PER_CIRCUIT = 4


def _gate_classes() -> list[tuple[str, int, int]]:
    """(class name, qubits, parameters) of every permitted standard gate class."""
    from qiskit.circuit import Gate
    from qiskit.circuit.library import get_standard_gate_name_mapping

    names = set(library_names())
    out = []
    for inst in get_standard_gate_name_mapping().values():
        cls = getattr(inst, "base_class", type(inst))  # a singleton's public class
        if isinstance(inst, Gate) and inst.num_qubits >= 1 and cls.__name__ in names:
            out.append((cls.__name__, inst.num_qubits, len(inst.params)))
    return sorted(set(out))


def _gate_expr(rng: random.Random, classes, room: int) -> tuple[str, int, set[str]]:
    """Source of one random (possibly transformed) gate fitting ``room`` qubits."""
    name, nq, npar = rng.choice([c for c in classes if c[1] <= room])
    params = ", ".join(repr(rng.uniform(-math.pi, math.pi)) for _ in range(npar))
    expr, width = f"{name}({params})", nq
    for _ in range(rng.randint(0, 2)):
        kind = rng.choice(["control", "inverse", "power"])
        annotated = rng.random() < 0.3
        ann = ", annotated=True" if annotated else ""
        if kind == "control" and width < room:
            k = rng.randint(1, min(2, room - width))
            state = rng.randrange(2 ** k)
            expr, width = f"{expr}.control({k}, ctrl_state={state}{ann})", width + k
        elif kind == "inverse":
            expr = f"{expr}.inverse({'annotated=True' if annotated else ''})"
        elif kind == "power":  # a plain gate's power is often a UnitaryGate: not permitted
            x = rng.choice([2, -1, 0.5, round(rng.uniform(-2, 2), 3)])
            expr = f"{expr}.power({x!r}{ann})"
    return expr, width, {name}


def _program(rng: random.Random, classes) -> str:
    used: set[str] = set()
    body = []
    for n in SIZES:
        body.append(f"    if n == {n}:")
        for _ in range(GATES_PER_CIRCUIT):
            expr, width, names = _gate_expr(rng, classes, n)
            used |= names
            qubits = rng.sample(range(n), width)
            body.append(f"        qc.append({expr}, {qubits})")
    imports = "from qiskit.circuit.library import " + ", ".join(sorted(used))
    return ("from qiskit import QuantumCircuit\n" + imports + "\n\n\ndef solve(n):\n"
            "    qc = QuantumCircuit(n)\n" + "\n".join(body) + "\n    return qc\n")


# Qiskit's CUGate(...).control(1).inverse() drops γ: the pair is not the identity in Qiskit,
# and the judge computes what Qiskit computes for the returned circuit
CU_PAIR = ("from qiskit import QuantumCircuit\nfrom qiskit.circuit.library import CUGate\n\n\n"
           "def solve(n):\n    qc = QuantumCircuit(n)\n    g = CUGate(0.3, 0.4, 0.5, 0.9).control(1)\n"
           "    qc.h(range(n))\n    if n >= 3:\n        qc.append(g, [0, 1, 2])\n"
           "        qc.append(g.inverse(), [0, 1, 2])\n    return qc\n")


def test_the_cugate_pair_is_not_the_identity_in_qiskit():
    want = _trusted(CU_PAIR, 3)
    assert not np.allclose(want, _trusted(CU_PAIR.replace("n >= 3", "n >= 4"), 3))


def _trusted(code: str, n: int):
    from qiskit.quantum_info import Operator

    g: dict = {}
    exec(compile(code, "<trusted>", "exec"), g)
    return Operator(g["solve"](n)).data


def _judged(result, n: int, case: int, transport: str) -> np.ndarray | None:
    """The unitary the judge's trusted side computes for case ``case`` from what it received;
    ``None`` where the rules forbid an instruction Qiskit made (a plain gate's ``power(x)`` is
    a ``UnitaryGate``: UGE)."""
    data = result.files[f"received_{case}"]
    if transport == "json":
        from quantum_codegen_eval.judges.qcoder.transport import load

        qc = load(data, (n,))
    else:
        qc, why = check.read_circuit(data, (n,))
        assert qc is not None, why
    flat = sim.inline(qc, {}, max_ops=check.MAX_OPS, allow_reset=False)
    if flat.violations:
        assert set(flat.violations) == {"unitary (UnitaryGate)"} and "unitary" in _names(qc)
        return None
    return sim.simulate(flat, n, range(2 ** n), {})


def _names(qc) -> set[str]:
    """Every operation name in ``qc``, definitions and annotated bases included."""
    out, todo = set(), [i.operation for i in qc.data]
    while todo:
        op = todo.pop()
        out.add(op.name)
        for inner in (getattr(op, "base_op", None), getattr(op, "base_gate", None)):
            if inner is not None:
                todo.append(inner)
        definition = getattr(op, "_definition", None)
        if definition is not None:
            todo.extend(i.operation for i in definition.data)
    return out


def test_every_permitted_gate_makes_the_trip(qsandbox, qcoder_records):
    import json

    rng = random.Random(36)
    classes = _gate_classes()
    assert len(classes) > 40
    rec, judge = qcoder_records["QPC001_A2"], QCoderJudge()
    codes = [_program(rng, classes) for _ in range(PROGRAMS - 1)] + [CU_PAIR]
    mismatches, compared, forbidden, transports = [], 0, 0, set()
    for code, result in zip(codes, recorded(qsandbox, judge, rec, codes,
                                                         len(judge.cases(rec))), strict=True):
        report = json.loads(result.peer.files[harness.REPORT])
        entries = {e["i"]: e for e in report["cases"]}
        received = {int(i): t for i, t in json.loads(result.files["received.json"]).items()}
        for n in SIZES:
            entry = entries[n - 1]
            assert entry["status"] == "ok", (entry, code)
            assert received[n - 1] == entry["transport"], (received, entry)
            transports.add(entry["transport"])
            got = _judged(result, n, n - 1, entry["transport"])
            if got is None:
                forbidden += 1
                continue
            want = _trusted(code, n)
            compared += 1
            if not np.allclose(got, want, atol=1e-7):
                mismatches.append((n, code))
    assert compared + forbidden == PROGRAMS * len(SIZES) and compared >= forbidden, (
        compared, forbidden)
    assert mismatches == [], mismatches[:3]
    assert transports <= {"qpy", "json"}, transports
