"""evaluate() end to end on the bundled sample: real judge, real sandbox, every metric."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from quantum_codegen_eval import evaluate
from quantum_codegen_eval.benchmarks import sample
from quantum_codegen_eval.execution import Sandbox


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(workers=2) as sb:
        yield sb


def _rows():
    return [json.loads(line) for line in open(sample.predictions_path()) if line.strip()]


def test_qiskit_sample_verdicts_and_exact_counting(sandbox):
    rows = [r for r in _rows() if not r["id"].startswith("sample/pl_")]
    report = evaluate(rows, "sample", "qiskit", k=(1, 2), sandbox=sandbox)
    by_key = {r["key"]: r for r in report.per_sample}
    assert len(report.per_sample) == len(rows) == report.summary["predictions"]
    assert by_key["sample/qk_bell_circuit#0"]["status"] == "AC"
    assert by_key["sample/qk_bell_circuit#1"]["status"] == "WA"
    assert by_key["sample/qk_ghz_circuit#1"]["error_class"] == "formatting"
    assert by_key["sample/qk_sampled_counts#0"]["status"] == "RE"
    assert by_key["sample/no_such_task#0"]["status"] == "FORMAT"
    assert "unknown problem id" in by_key["sample/no_such_task#0"]["message"]
    assert by_key["sample/qk_bell_circuit#2"]["message"].endswith("empty completion")
    assert report.summary["unknown_ids"] == ["sample/no_such_task#0"]
    # qk_bell_circuit has 3 samples (AC, WA, empty), the others 2 with one AC each
    table = report.summary["pass@k"]["all"]
    assert table["pass@1"] == pytest.approx((1 / 3 + 1 / 2 + 1 / 2 + 1 / 2) / 4)
    assert table["pass@2"] == pytest.approx((1 - 1 / 3 + 1 + 1 + 1) / 4)
    assert 0 < report.summary["codebleu"]["codebleu"] <= 1
    assert report.signatures["codebleu"].startswith("codebleu|variant:quantum|lang:qiskit")
    md = report.to_markdown()
    assert "## pass@k (%)" in md and "## Error distribution" in md


@pytest.mark.slow  # PennyLane imported afresh for every sample (the demo covers it too)
def test_pennylane_sample_hallucinations(sandbox):
    rows = [r for r in _rows() if r["id"].startswith("sample/pl_")]
    report = evaluate(rows, "sample", "pennylane", k=(1,), sandbox=sandbox)
    by_key = {r["key"]: r for r in report.per_sample}
    assert by_key["sample/pl_bell_state#0"]["status"] == "AC"
    assert by_key["sample/pl_rx_expval#0"]["status"] == "AC"  # a body-only completion
    assert by_key["sample/pl_bell_state#1"]["hallucinated"] == ["qml.BellState"]
    assert by_key["sample/pl_bell_state#0"]["hallucinated"] == []
    assert by_key["sample/pl_ry_gradient#1"]["status"] == "RE"  # prose: runs into a SyntaxError
    assert by_key["sample/pl_rx_expval#2"]["status"] == "FORMAT"  # null completion
    h = report.summary["hallucination"]
    assert h["samples_with_hallucination"] == 1 and h["unparsable"] == 1
    assert by_key["sample/pl_ry_gradient#0"]["wrong_version_api"] == ["qml.QubitStateVector"]
    assert h["samples_with_wrong_version_api"] == 1


def test_resume_judges_only_what_is_missing(tmp_path, sandbox):
    rows = [r for r in _rows() if r["id"].startswith("sample/qk_")]
    store = tmp_path / "results.jsonl"
    first = evaluate(rows[:4], "sample", "qiskit", k=(1,), store=store, sandbox=sandbox)
    assert len(store.read_text().splitlines()) == 4
    with pytest.raises(FileExistsError, match="resume"):
        evaluate(rows, "sample", "qiskit", k=(1,), store=store, sandbox=sandbox)
    full = evaluate(rows, "sample", "qiskit", k=(1,), store=store, resume=True, sandbox=sandbox)
    lines = [json.loads(x) for x in store.read_text().splitlines()]
    keys = [x.get("key") or x.get("id") for x in lines]
    assert len(keys) == len(set(keys)) == len(rows)
    assert [r["status"] for r in full.per_sample[:4]] == [r["status"] for r in first.per_sample]
    # everything stored: a resumed run needs no sandbox at all
    again = evaluate(rows, "sample", "qiskit", k=(1,), store=store, resume=True, sandbox=None)
    assert [r["status"] for r in again.per_sample] == [r["status"] for r in full.per_sample]
    assert len(store.read_text().splitlines()) == len(rows)


@pytest.mark.slow  # the demo: both sample configs end to end
def test_report_files_and_cli_demo(tmp_path):
    out = tmp_path / "demo"
    proc = subprocess.run([sys.executable, "-m", "quantum_codegen_eval", "demo", "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "# Evaluation report: sample (pennylane)" in proc.stdout
    # it says what it is doing (issue 21: minutes of silence before)
    lines = proc.stderr.splitlines()
    assert "qce demo: the pennylane half: 9 predictions on 4 tasks" in lines
    assert "scoring 9 samples (codebleu, rouge_l, hallucination) ..." in lines
    for config in ("pennylane", "qiskit"):
        data = json.loads((out / config / "report.json").read_text())
        assert data["summary"]["predictions"] == len(data["per_sample"])
        assert (out / config / "pass_at_k.png").stat().st_size > 1000


def test_resume_refuses_a_changed_completion(tmp_path, sandbox):
    store = tmp_path / "results.jsonl"
    evaluate({"sample/qk_bell_circuit": ["x = 1"]}, "sample", "qiskit", k=(1,), store=store,
             sandbox=sandbox)
    with pytest.raises(ValueError, match="different completion"):
        evaluate({"sample/qk_bell_circuit": ["x = 2"]}, "sample", "qiskit", k=(1,), store=store,
                 resume=True, sandbox=sandbox)


def test_sample_jobs_run_in_a_worker_that_preloaded_their_framework():
    """PennyLane imported once in the worker, not in every job (the demo's PennyLane half took
    4 minutes under load without it)."""
    from quantum_codegen_eval.benchmarks import sample

    judge = sample.make_judge()
    for config, module in (("pennylane", "pennylane"), ("qiskit", "qiskit")):
        for problem in sample.problems(config).values():
            (job,) = judge.jobs(problem, "x = 1\n")
            assert module in job.preload
            assert ("pennylane" in job.preload) == (config == "pennylane")  # only where used
