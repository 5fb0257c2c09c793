"""evaluate() on QCoder: reference and wrong solutions of a few problems, counted exactly,
grouped per contest, and the CLI `qce evaluate` writing the report."""

from __future__ import annotations

import json

from quantum_codegen_eval import evaluate
from quantum_codegen_eval.cli import main
from quantum_codegen_eval.judges.qcoder.specs import get_spec

IDS = ("QPC001_A1", "QPC002_A5", "QPC003_A1")


def _predictions():
    rows = []
    for pid in IDS:
        spec = get_spec(pid)
        rows.append({"id": pid, "completion": f"```python\n{spec.reference}\n```"})
        rows.append({"id": pid, "completion": f"```python\n{spec.wrong[0]}\n```"})
    return rows


def test_evaluate_qcoder_per_contest(qcoder_data, qsandbox):
    report = evaluate(_predictions(), "qcoder", "problems", data_dir=qcoder_data, k=(1, 2),
                      sandbox=qsandbox)
    statuses = [r["status"] for r in report.per_sample]
    assert statuses[0::2] == ["AC"] * 3 and all(s != "AC" for s in statuses[1::2])
    table = report.summary["pass@k"]
    assert table["all"]["pass@1"] == 0.5 and table["all"]["pass@2"] == 1.0
    assert set(table) == {"all", "QPC001", "QPC002", "QPC003"}
    assert len(report.summary["problems_without_predictions"]) == 67 - 3
    assert report.signatures["codebleu"].startswith("codebleu|variant:quantum|lang:qiskit")


def test_cli_evaluate_writes_report(qcoder_data, tmp_path, capsys):
    preds = tmp_path / "preds.jsonl"
    preds.write_text("".join(json.dumps(r) + "\n" for r in _predictions()[:2]))
    out = tmp_path / "run"
    code = main(["evaluate", str(preds), "--benchmark", "qcoder", "--config", "problems",
                 "--data-dir", str(qcoder_data), "--out", str(out), "-k", "1", "--json",
                 "--no-progress"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["predictions"] == 2 and summary["statuses"] == {"AC": 1, "WA": 1}
    assert (out / "report.md").read_text().startswith("# Evaluation report: qcoder (problems)")
    assert len((out / "results.jsonl").read_text().splitlines()) == 2
    # the same command again without --resume refuses to mix runs (a usage error: exit 2, the
    # line names the --resume command); with it, judges nothing new
    assert main(["evaluate", str(preds), "--benchmark", "qcoder", "--config", "problems",
                 "--data-dir", str(qcoder_data), "--out", str(out), "--no-progress"]) == 2
    assert main(["evaluate", str(preds), "--benchmark", "qcoder", "--config", "problems",
                 "--data-dir", str(qcoder_data), "--out", str(out), "--resume", "-k", "1",
                 "--no-progress"]) == 0
    assert len((out / "results.jsonl").read_text().splitlines()) == 2
