"""The inspect_ai task and scorer: real inspect runs (its ``mockllm`` model in-process; the
``inspect eval`` CLI through the entry point), and their logs read back by ``qce evaluate``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from harness_models import mockllm
from integration_programs import EXPECTED, statuses

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval  # noqa: E402

from quantum_codegen_eval import evaluate  # noqa: E402
from quantum_codegen_eval.integrations.inspect_ai import task  # noqa: E402

SUPPORT = Path(__file__).resolve().parents[1] / "support"


def test_task_samples_are_the_benchmark_prompts(prompts):
    t = task("sample", "qiskit")
    assert {s.id: s.input for s in t.dataset} == prompts
    assert task("sample", "qiskit", ids=["sample/qk_bell_circuit"]).dataset[0].id \
        == "sample/qk_bell_circuit"
    with pytest.raises(KeyError, match="no problem 'nope'"):
        task("sample", "qiskit", ids=["nope"])


@pytest.fixture(scope="module")
def scored_log(answers, tmp_path_factory):
    logs = inspect_eval(task("sample", "qiskit"), model=mockllm(answers), display="none",
                        log_dir=str(tmp_path_factory.mktemp("inspect-logs")))
    assert logs[0].status == "success", logs[0].error
    return logs[0]


def test_scorer_is_the_judge(scored_log):
    scores = {s.id: s.scores["judge"] for s in scored_log.samples}
    assert {pid: s.metadata["status"] for pid, s in scores.items()} == EXPECTED, {
        pid: (s.metadata["status"], s.metadata["message"][:500]) for pid, s in scores.items()}
    assert {pid: s.value for pid, s in scores.items()} == {
        pid: int(status == "AC") for pid, status in EXPECTED.items()}
    wrong = scores["sample/qk_ghz_circuit"]
    assert wrong.metadata["error_class"] == "reasoning" and wrong.metadata["message"]
    assert scored_log.results.scores[0].metrics["accuracy"].value == 0.5


def test_log_reads_back_with_the_judges_statuses(scored_log, sandbox):
    report = evaluate(scored_log.location, "sample", "qiskit", sandbox=sandbox,
                      metrics=("pass@k",), k=(1,))
    assert statuses(report) == {f"{pid}#0": s.scores["judge"].metadata["status"]
                                for pid, s in ((s.id, s) for s in scored_log.samples)}


@pytest.mark.slow
def test_inspect_eval_cli_runs_the_registered_task(answers, tmp_path):
    """``inspect eval quantum_codegen_eval/sample`` resolves through our entry point; the model
    is a test-only inspect extension (support/qce_fixed_model.py), installed here by a dist-info
    with its own entry point, since mockllm takes no answers from the command line."""
    ext = tmp_path / "ext"
    (ext / "qce_fixed_model-0.dist-info").mkdir(parents=True)
    shutil.copy(SUPPORT / "qce_fixed_model.py", ext)
    (ext / "qce_fixed_model-0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: qce-fixed-model\nVersion: 0\n")
    (ext / "qce_fixed_model-0.dist-info" / "entry_points.txt").write_text(
        "[inspect_ai]\nqce_fixed_model = qce_fixed_model\n")
    (tmp_path / "answers.json").write_text(json.dumps(answers))
    env = {**os.environ, "PYTHONPATH": str(ext), "QCE_FIXED_ANSWERS": str(tmp_path / "answers.json")}
    bin_dir = Path(sys.executable).parent
    run = subprocess.run([str(bin_dir / "inspect"), "eval", "quantum_codegen_eval/sample",
                          "-T", "config=qiskit", "--model", "qcefixed/model", "--log-dir",
                          str(tmp_path / "logs"), "--display", "none"],
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    (log,) = (tmp_path / "logs").glob("*.eval")
    out = subprocess.run([str(bin_dir / "qce"), "evaluate", str(log), "--benchmark", "sample",
                          "--config", "qiskit", "--out", str(tmp_path / "report"), "-k", "1",
                          "--no-progress"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    assert {r["problem_id"]: r["status"] for r in report["per_sample"]} == EXPECTED
