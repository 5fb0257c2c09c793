"""Feedback prompts for every verdict status, and the refinement loop with a scripted generator."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.feedback import feedback_prompt
from quantum_codegen_eval.refinement import refine
from quantum_codegen_eval.verdict import STATUSES, TestResult, Verdict


@pytest.fixture(scope="module")
def qsandbox():
    from quantum_codegen_eval.execution import Sandbox

    with Sandbox(workers=1) as sb:
        yield sb


@pytest.fixture(scope="module")
def qcoder_records(upstream, tmp_path_factory):
    from quantum_codegen_eval.benchmarks.qcoder import problems
    from quantum_codegen_eval.loaders.qcoder import build

    out = tmp_path_factory.mktemp("qcoder_fb")
    build(upstream / "qcoder", out)
    return problems(data_dir=out)


def _v(status, **kw):
    return Verdict(benchmark=kw.pop("benchmark", "qcoder"), problem_id="P", status=status, **kw)


def test_every_status_has_a_message():
    for s in STATUSES:
        text = feedback_prompt(_v(s, message="msg"))
        assert (text == "") == (s == "AC"), s
        if s != "AC":
            assert f"({s})" in text and "```python" in text, s


def test_messages_carry_the_details():
    wa = feedback_prompt(_v("WA", message="fidelity 0.5", tests_passed=2, tests_total=5,
                            details={"first_failing": "n=3", "fidelity": 0.5}))
    assert "n=3" in wa and "0.5000" in wa and "2 of 5" in wa
    assert "depth is 9" in feedback_prompt(_v("DLE", details={"depth": 9, "depth_limit": 6}))
    assert "applies the given gate too many times" in feedback_prompt(
        _v("DLE", message="2 applications of oracle exceed 1", details={"queries": 2}))
    assert "import os" in feedback_prompt(_v("UME", details={"imports": ["import os"]}))
    assert "swap" in feedback_prompt(_v("UGE", message="SwapGate is banned", details={"violating_gate": "swap"}))
    re_text = feedback_prompt(_v("RE", message="Traceback ...\nZeroDivisionError: division by zero"))
    assert "ZeroDivisionError: division by zero" in re_text
    other = feedback_prompt(_v("WA", benchmark="qhack", tests=[TestResult("case 1", False, message="got 2")]))
    assert "case 1: got 2" in other


@pytest.mark.upstream
def test_refine_stops_at_ac(qsandbox, qcoder_records):
    from quantum_codegen_eval.benchmarks.qcoder import prompt
    from quantum_codegen_eval.judges.qcoder.specs import get_spec

    spec = get_spec("QPC002_A2")
    answers = iter(["I think:\n```python\n" + spec.wrong[0] + "```",
                    "```python\nimport os\n" + spec.reference + "```",
                    "```python\n" + spec.reference + "```", "never used"])
    prompts = []

    def generate(p):
        prompts.append(p)
        return next(answers)

    rec = qcoder_records["QPC002_A2"]
    res = refine(generate, rec, max_rounds=5, sandbox=qsandbox)
    assert [r.verdict.status for r in res.rounds] == ["WA", "UME", "AC"]
    assert res.solved and res.first_ac_round == 2 and len(prompts) == 3
    assert prompts[0] == prompt(rec)
    assert "(WA)" in prompts[1] and "attempt 1" in prompts[1]
    assert "(UME)" in prompts[2] and "import os" in prompts[2]
    assert res.to_dict()["rounds"][2]["verdict"]["status"] == "AC"
    short = refine(lambda p: "```python\n" + spec.wrong[0] + "```", rec, max_rounds=2, sandbox=qsandbox)
    assert len(short.rounds) == 2 and not short.solved and short.first_ac_round is None
    with pytest.raises(ValueError):
        refine(generate, rec, max_rounds=0)


def test_wording_comes_from_the_benchmark_declaration():
    from quantum_codegen_eval.benchmarks.base import FeedbackWording, get

    failing = [TestResult("case 1", False, message="got 2")]
    qcoder_wa = feedback_prompt(_v("WA", tests=failing))
    assert "Failing tests" not in qcoder_wa  # QCoder lists no tests: they are parameter values
    assert "case 1: got 2" in feedback_prompt(_v("WA", benchmark="qiskit_humaneval", tests=failing))
    assert "solve()" in feedback_prompt(_v("RE", message="boom"))
    qhack_re = feedback_prompt(_v("RE", benchmark="qhack", message="boom"))
    assert "solve()" not in qhack_re and get("qhack").feedback.run_hint in qhack_re
    custom = FeedbackWording(list_failed_tests=False, run_hint="Check the wires.")
    text = feedback_prompt(_v("RE", benchmark="unknown-benchmark", message="boom"), custom)
    assert "Check the wires." in text
    assert "Make sure the code runs" in feedback_prompt(_v("RE", benchmark="unknown", message="x"))
