"""A limit of the trusted stage's own (gates it reads, definition nesting, dense blocks, qubits
it simulates) is a judge error naming the limit, never the program's verdict (issue 17): these
gave TLE, and a header over the gate limit gave RE.

The trusted check runs in-process here (``check.check_case``, the function the trusted job
calls); ``test_judge_limits.py`` has the end-to-end case."""

from __future__ import annotations

import io
import struct

import pytest
from qiskit import QuantumCircuit, qpy
from qiskit.circuit import Gate
from qiskit.qpy import formats

from quantum_codegen_eval.judges.qcoder import check
from quantum_codegen_eval.judges.qcoder import simulate as sim
from quantum_codegen_eval.judges.qcoder.specs import get_spec


def _qpy(qc: QuantumCircuit) -> bytes:
    buf = io.BytesIO()
    qpy.dump(qc, buf)
    return buf.getvalue()


def _check(pid: str, qc: QuantumCircuit, case_index: int = 0) -> dict:
    spec = get_spec(pid)
    case = check.cases_for(spec, pid, 0)[case_index]
    problem = {"id": pid, "depth_limit": None, "query_limit": None, "banned_gates": []}
    return check.check_case(problem, spec, case, _qpy(qc), "nonce")


def _is_judge_limit(res: dict, what: str) -> None:
    assert res["status"] == "RE" and res.get("judge_error") is True, res
    assert res["message"].startswith("judge limit: ") and what in res["message"], res


def _nested(levels: int) -> QuantumCircuit:
    body = QuantumCircuit(1)
    body.h(0)
    for i in range(levels):
        g = Gate(f"layer{i}", 1, [])
        g.definition = body
        body = QuantumCircuit(1)
        body.append(g, [0])
    return body


def test_definitions_nested_past_the_judge_are_a_judge_limit():
    _is_judge_limit(_check("QPC001_A1", _nested(sim.MAX_NESTING + 4)),
                    f"nested deeper than {sim.MAX_NESTING}")
    assert _check("QPC001_A1", _nested(8))["status"] == "AC"  # within the limit: decided


def test_more_gates_than_the_judge_reads_are_a_judge_limit(monkeypatch):
    monkeypatch.setattr(check, "MAX_OPS", 1000)
    flat = QuantumCircuit(1)  # over the limit in the file itself
    for _ in range(1001):
        flat.h(0)
    _is_judge_limit(_check("QPC001_A1", flat), "1000")
    block = QuantumCircuit(1)  # over it once definitions are expanded
    for _ in range(200):
        block.h(0)
    qc = QuantumCircuit(1)
    for _ in range(5):
        qc.append(block.to_gate(), [0])
    qc.h(0)
    _is_judge_limit(_check("QPC001_A1", qc), "more than 1000 gates")


def test_a_header_claiming_more_than_the_file_holds_is_still_the_programs_re():
    """Over the gate limit *and* more than the file can hold: a forged file, not a limit."""
    data = bytearray(_qpy(_nested(1)))
    fh = formats.FILE_HEADER_V10_SIZE
    (offset,) = struct.unpack("!Q", data[fh + 1:fh + 9])
    end = offset + formats.CIRCUIT_HEADER_V12_SIZE
    header = formats.CIRCUIT_HEADER_V12(
        *struct.unpack(formats.CIRCUIT_HEADER_V12_PACK, data[offset:end]))
    data[offset:end] = struct.pack(formats.CIRCUIT_HEADER_V12_PACK,
                                   *header._replace(num_instructions=10 ** 6))
    spec = get_spec("QPC001_A1")
    res = check.check_case({"id": "QPC001_A1"}, spec, check.cases_for(spec, "QPC001_A1", 0)[0],
                           bytes(data), "nonce")
    assert res["status"] == "RE" and not res.get("judge_error"), res


def test_a_non_integer_power_of_a_wide_block_is_a_judge_limit():
    """QPC002_A3 at n = 11: the square root of an 11-qubit composite (a dense block wider than
    the judge computes)."""
    spec = get_spec("QPC002_A3")
    cases = check.cases_for(spec, "QPC002_A3", 0)
    i = next(i for i, c in enumerate(cases) if spec.qubits(c) == 11)
    block = QuantumCircuit(11)
    block.h(range(11))
    qc = QuantumCircuit(11)
    qc.append(block.to_gate().power(0.5, annotated=True), range(11))
    _is_judge_limit(_check("QPC002_A3", qc, i), f"up to {sim.MAX_DENSE_QUBITS}")


@pytest.mark.parametrize("status", ["RE", "WA", "UGE"])
def test_the_programs_own_failures_keep_their_status(status):
    """Only the judge's limits changed: an unbound parameter (RE), resets leaving a random state
    (WA) and resets from several inputs (UGE) stay the program's."""
    assert sim.SimError("x", status).status == status
    assert not sim.SimError("x", status).judge_limit
