"""A judge-side serialisation limit is never the program's fault: circuits QPY cannot read back
travel as a bounded JSON tree, rebuilt and validated on the trusted side."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from qiskit import QuantumCircuit, qpy
from qiskit.circuit.library import CUGate
from qiskit.quantum_info import Operator

from quantum_codegen_eval.judges.jobs.wire import WireError
from quantum_codegen_eval.judges.qcoder import simulate as sim
from quantum_codegen_eval.judges.qcoder.jobs.circuit_tree import enc_circ  # the harness's writer
from quantum_codegen_eval.judges.qcoder.transport import TransportError, load


def _tree(qc: QuantumCircuit) -> bytes:
    return json.dumps(enc_circ(qc, 0)).encode()


def _cu_control() -> QuantumCircuit:
    qc = QuantumCircuit(3, global_phase=0.4)
    qc.h(0)
    qc.append(CUGate(0.3, 0.5, 0.7, 0.9).control(1), [0, 1, 2])
    qc.append(CUGate(1.1, -0.2, 0.4, -0.6).control(1, ctrl_state=0), [2, 0, 1])
    sub = QuantumCircuit(2, global_phase=0.2)
    sub.ry(0.3, 0)
    sub.cx(0, 1)
    qc.append(sub.to_gate().control(1, ctrl_state=0, annotated=True).inverse(annotated=True),
              [2, 1, 0])
    qc.mcx([0, 1], 2, ctrl_state=2)
    return qc


def test_qpy_cannot_read_cugate_control_back():
    """The Qiskit limit this transport exists for (if Qiskit fixes it, this test says so)."""
    buf = io.BytesIO()
    qpy.dump(_cu_control(), buf)
    with pytest.raises(Exception):  # noqa: B017, PT011 - whatever Qiskit raises
        qpy.load(io.BytesIO(buf.getvalue()))


def test_tree_round_trip_keeps_qiskit_semantics():
    qc = _cu_control()
    back = load(_tree(qc), (3,))
    flat = sim.inline(back, {})
    assert not flat.violations
    got = sim.simulate(flat, 3, range(8), {})
    assert np.abs(got - Operator(qc).data).max() < 1e-9


def test_unknown_classes_stay_unknown():
    qc = QuantumCircuit(1)
    qc.unitary(np.eye(2), [0])
    qc.data[0].operation.name = "h"  # renamed: the class still travels
    flat = sim.inline(load(_tree(qc), (1,)), {})
    assert "UnitaryGate" in flat.violations[0]


@pytest.mark.parametrize("tree,text", [
    ({"n": 2, "ops": []}, "2 qubits"),
    ({"n": 1, "ops": [[{"cls": "HGate", "name": "h", "n": 1, "params": []}, [5]]]}, "not an integer"),
    ({"n": 1, "ops": [[{"cls": "RXGate", "name": "rx", "n": 1, "params": [float("nan")]}, [0]]]},
     "finite"),
    ({"n": 1, "phase": 1e400, "ops": []}, "finite"),
    ({"n": 1, "ops": [[{"cls": "HGate", "name": "h", "n": 2, "params": []}, [0]]]}, "the tree says"),
    ({"n": 2, "ops": [[{"cls": "CXGate", "name": "cx", "n": 2, "params": []}, [0, 0]]]}, "qubits"),
    ({"n": 1, "ops": "x"}, "instruction list"),
])
def test_malformed_trees_are_refused(tree, text):
    with pytest.raises(TransportError, match=text):
        load(json.dumps(tree).encode(), (1,))
    # one error type for every wire format (judges/jobs/wire.py)
    with pytest.raises(WireError):
        load(json.dumps(tree).encode(), (1,))


def test_deep_nesting_is_bounded():
    op = {"cls": "HGate", "name": "h", "n": 1, "params": []}
    for _ in range(200):
        op = {"cls": "Gate", "name": "g", "n": 1, "params": [], "def": {"n": 1, "ops": [[op, [0]]]}}
    with pytest.raises(TransportError, match="nested"):
        load(json.dumps({"n": 1, "ops": [[op, [0]]]}).encode(), (1,))



@pytest.mark.upstream
def test_correct_circuit_with_cugate_control_gets_ac(qsandbox, qcoder_records):
    """QPC001_B2 (parity into y) solved with Toffoli-free CU gates: CUGate(pi, 0, pi, 0) is CX,
    and CUGate(...).control(1) with its inverse is the identity. QPY cannot read it back; the
    program still gets AC."""
    from quantum_codegen_eval.judges.base import judge_many
    from quantum_codegen_eval.judges.qcoder import QCoderJudge

    code = """from qiskit import QuantumCircuit
from qiskit.circuit.library.standard_gates import CUGate
import math


def solve(n):
    qc = QuantumCircuit(n + 1)
    for q in range(n):
        qc.append(CUGate(math.pi, 0, math.pi, 0), [q, n])
    if n >= 2:
        g = CUGate(0.3, 0.5, 0.7, 0.9)
        qc.append(g.control(1), [0, 1, n])
        qc.append(g.inverse().control(1), [0, 1, n])
    return qc
"""
    wrong = code.replace("g.inverse().control(1)", "g.control(1)")
    # the controlled gate's annotated inverse: its base UGate carries CUGate's gamma, which
    # UGate.inverse() drops; the judge used to lose it (WA for this correct circuit)
    annotated = code.replace("g.inverse().control(1)", "g.control(1).inverse(annotated=True)")
    # Qiskit's own plain ControlledGate.inverse() drops gamma too: Operator() of the program's
    # circuit is not the identity, so by Qiskit's semantics (the real judge's) this is WA
    qiskit_drops = code.replace("g.inverse().control(1)", "g.control(1).inverse()")
    rec = qcoder_records["QPC001_B2"]
    ok, bad, ok2, bad2 = judge_many(QCoderJudge(), [(rec, code), (rec, wrong), (rec, annotated),
                                                    (rec, qiskit_drops)], qsandbox)
    assert ok.status == "AC", ok.message
    assert bad.status == "WA", bad.message
    assert ok2.status == "AC", ok2.message
    assert bad2.status == "WA", bad2.message
