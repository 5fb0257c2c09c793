"""A limit of the judge's never becomes the program's failure, and is never the program's word.

A circuit over what the trusted check keeps (per test, for all tests together) is still sent in
full on the link: the check receives and counts it, and names the limit as a judge limitation
(``simulation``: established by the trusted check from what it received), never the program's
RE. What the program's process says about sizes decides nothing."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.judges.qcoder import QCoderJudge, check
from quantum_codegen_eval.judges.qcoder import judge as judge_mod

pytestmark = pytest.mark.upstream

H = "from qiskit import QuantumCircuit\n\n\n"
NP = "import numpy\nfrom qiskit import QuantumCircuit\n\n\n"


def test_large_unitary_block_is_uge_at_every_size(qsandbox, qcoder_records, judge_many):
    """QPC005_B1 with a UnitaryGate: 16 MB of QPY at n = 10 (over the per-file limit) was RE
    ("OSError(27, 'File too large')"); the banned block is visible at every n."""
    code = NP + ("def solve(n, k_const):\n    qc = QuantumCircuit(n)\n"
                 "    qc.unitary(numpy.eye(2 ** n), list(range(n)))\n    return qc\n")
    (v,) = judge_many(qsandbox, QCoderJudge(), [(qcoder_records["QPC005_B1"], code)])
    assert v.status == "UGE", v.message
    assert [t.status for t in v.tests] == ["UGE"] * v.tests_total
    assert any(t.name.startswith("n=10") for t in v.tests)


@pytest.fixture()
def small_limits(monkeypatch):
    """The check keeps 24 KB per test: a 3000-gate circuit is over it as QPY and as a tree."""
    monkeypatch.setattr(check, "MAX_CASE_BYTES", 24 << 10)


def _many_h(extra: str = "") -> str:
    return H + ("def solve():\n    qc = QuantumCircuit(1)\n    for _ in range(3001):\n"
                "        qc.h(0)\n" + extra + "    return qc\n")


def test_over_the_limits_is_a_judge_limitation(qsandbox, qcoder_records, judge_many, small_limits):
    rec = qcoder_records["QPC001_A1"]
    block = "    qc.unitary([[0, 1], [1, 0]], [0])\n"
    ok, blocked = judge_many(qsandbox, QCoderJudge(), [(rec, _many_h()), (rec, _many_h(block))])
    for v in (ok, blocked):  # correct or not, too large to read: the judge's limit, never AC/RE
        assert v.judge_error and "judge limit" in v.message, (v.status, v.message)
        assert v.error_class is None and v.judge_limitation == "simulation", v.details
        # the size is what the trusted check received and counted
        assert "received and counted by the trusted check" in v.message, v.message


def test_the_limit_for_all_tests_together(qsandbox, qcoder_records, judge_many, monkeypatch):
    """QPC001_A2 (n = 1..10): the check keeps 40 KB for all tests; the tests that come after
    are over it: judge limits, and a wrong answer on the tests that fit still decides."""
    monkeypatch.setattr(check, "MAX_KEPT_BYTES", 40 << 10)
    code = H + ("def solve(n):\n    qc = QuantumCircuit(n)\n"
                "    for _ in range(300):\n        qc.h(range(n))\n    return qc\n")
    (v,) = judge_many(qsandbox, QCoderJudge(), [(qcoder_records["QPC001_A2"], code)])
    assert v.status == "WA" and not v.judge_error, (v.status, v.message)
    assert any("for all tests together" in t.message for t in v.tests), [t.message for t in v.tests]


def test_a_failure_elsewhere_still_decides(qsandbox, qcoder_records, judge_many, small_limits):
    """QPC001_A2 (n = 1..10): small n fit, larger n are over the limit; a wrong answer on the
    tests that fit is WA (the limit decides nothing), not a judge error."""
    code = H + ("def solve(n):\n    qc = QuantumCircuit(n)\n"
                "    for _ in range(400 * n):\n        qc.x(0)\n    return qc\n")
    (v,) = judge_many(qsandbox, QCoderJudge(), [(qcoder_records["QPC001_A2"], code)])
    assert v.status == "WA" and not v.judge_error, (v.status, v.message)
    assert any(t.message.startswith("judge limit") for t in v.tests)


def test_a_limit_of_the_trusted_stage_is_a_judge_error(qsandbox, qcoder_records, judge_many):
    """Definitions nested past what the trusted stage follows (64; Qiskit reads them back): a
    correct circuit was TLE, the judge's limit taken for the program's failure (issue 17)."""
    def nested(gate: str) -> str:
        return H + ("def solve():\n    body = QuantumCircuit(1)\n    body." + gate + "(0)\n"
                    "    for i in range(70):\n        g = body.to_gate(label='l%d' % i)\n"
                    "        body = QuantumCircuit(1)\n        body.append(g, [0])\n"
                    "    return body\n")
    (v,) = judge_many(qsandbox, QCoderJudge(), [(qcoder_records["QPC001_A1"], nested("h"))])
    assert v.judge_error and v.error_class is None, (v.status, v.message)
    assert "judge limit" in v.message and "nested deeper than 64" in v.message, v.message
    # established by the trusted stage: a judge limitation, counted and left out of the pass@k
    # without judge limitations (never the model's error)
    assert v.judge_limitation == "simulation", v.details


def test_the_output_limits_hold_when_the_program_patches_the_harness(
        qsandbox, qcoder_records, judge_many, small_limits, monkeypatch):
    """The harness module is in the program's ``sys.modules``: shadowing ``len`` / ``min`` in
    its globals (the static rule switched off, to test the run-time layer alone) changes what
    the harness sends at most; the bound is the check's, which counts what it receives."""
    monkeypatch.setattr(judge_mod, "static_imports", lambda code, allowed: [])
    patch = ("import numpy.lib._datasource as _d\n\n"
             "_h = _d.os.sys.modules['quantum_codegen_eval.judges.qcoder.jobs.harness']\n"
             "_h.min = lambda *a: 1 << 40\n_h.len = lambda x: 0\n")
    (v,) = judge_many(qsandbox, QCoderJudge(), [(qcoder_records["QPC001_A1"],
                                                 _many_h().replace(H, H + patch, 1))])
    assert v.judge_error and "judge limit" in v.message, (v.status, v.message)


def test_a_forged_limit_is_not_a_judge_error(qsandbox, qcoder_records, judge_many):
    """A program that takes over its process's reporting and claims a limit of the judge's for
    its wrong answer (the report's status, transport, a skeleton): the claim decides nothing;
    what the check received is judged."""
    from qcoder_session import link, program_result, qpy_bytes, run_check, session
    from qiskit import QuantumCircuit

    rec = qcoder_records["QPC001_A1"]
    judge = QCoderJudge()
    code = H + "def solve():\n    return QuantumCircuit(1)\n"
    wrong = run_check(qsandbox, judge, rec, code, link({0: qpy_bytes(QuantumCircuit(1))}))
    nothing = run_check(qsandbox, judge, rec, code, b"")
    for claim in ({"status": "limit", "error": "judge limit: the output is 1 TB"},
                  {"transport": "skeleton"}, {"status": "unsent"}):
        for check_run in (wrong, nothing):
            v = judge.decide(rec, code, [session(check_run, program_result(1, **claim))])
            assert not v.judge_error and v.status in ("WA", "RE"), (claim, v.status, v.message)
            assert not v.judge_limitation, v.details
