"""publish-run: real report folders (the sample judged for real, and a refinement run) as a
details-style Hub dataset; every config loads with ``datasets``; two runs give two timestamp
splits plus ``latest``; an offline upload is one line."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import datasets
import pytest

from quantum_codegen_eval.benchmarks import sample
from quantum_codegen_eval.cli import main
from quantum_codegen_eval.evaluate import evaluate
from quantum_codegen_eval.publish import read_card_yaml
from quantum_codegen_eval.publish_run import build_run_folder, folder_configs, publish_runs
from quantum_codegen_eval.refinement import refine_all


def _stamp(folder: Path, when: str) -> None:
    """Date a run: its provenance start where the report records one, else the file time."""
    file = folder / "report.json"
    data = json.loads(file.read_text())
    if isinstance(data.get("provenance"), dict):
        data["provenance"]["run"]["started"] = when
        file.write_text(json.dumps(data))
    t = dt.datetime.fromisoformat(when).timestamp()
    os.utime(file, (t, t))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("runs")
    tasks = sample.problems("qiskit")
    preds = [{"id": pid, "completion": f"```python\n{t.prompt}{t.canonical_solution}```"}
             for pid, t in tasks.items()][:2]
    preds.append({"id": "sample/qk_basis_state", "completion": "no code here"})
    first = base / "model-a"
    evaluate(preds, "sample", "qiskit", k=(1,), workers=1).save(first)
    _stamp(first, "2026-01-02T03:04:05+00:00")
    second = base / "model-a-refined"
    refine_all(lambda reqs: [""] * len(reqs), "sample", "qiskit", rounds=1, metrics=()).save(second)
    _stamp(second, "2026-02-03T04:05:06+00:00")
    return first, second


def test_dry_run_folder_loads_every_config(runs, tmp_path):
    first, _ = runs
    out = tmp_path / "hub"
    message = publish_runs([first], "me/qce-details", folder=out, dry_run=True)
    assert "nothing uploaded" in message and "details_sample_qiskit" in message
    meta = read_card_yaml(out)
    assert {c["config_name"] for c in meta["configs"]} == {"details_sample_qiskit", "results"}
    report = json.loads((first / "report.json").read_text())
    details = datasets.load_dataset(str(out), "details_sample_qiskit", split="latest",
                                   cache_dir=tmp_path / "cache")
    assert details.num_rows == len(report["per_sample"])
    assert sorted(details["status"]) == sorted(r["status"] for r in report["per_sample"])
    assert json.loads(details[0]["verdict"])["status"] == details[0]["status"]
    assert set(details["run"]) == {"model-a"}
    results = datasets.load_dataset(str(out), "results", split="2026_01_02T03_04_05",
                                   cache_dir=tmp_path / "cache")
    assert results[0]["pass_at_1"] == pytest.approx(report["summary"]["pass@k"]["all"]["pass@1"])
    assert json.loads(results[0]["summary"])["predictions"] == 3
    assert json.loads(results[0]["provenance"]) == report.get("provenance")


def test_two_runs_give_two_splits_and_latest(runs, tmp_path):
    first, second = runs
    out = tmp_path / "hub"
    build_run_folder([first], out)
    build_run_folder([second], out)  # a later publish into the same folder
    configs = folder_configs(out)
    assert set(configs["details_sample_qiskit"]) == {"2026_01_02T03_04_05", "2026_02_03T04_05_06"}
    card = {c["config_name"]: c["data_files"] for c in read_card_yaml(out)["configs"]}
    splits = [f["split"] for f in card["results"]]
    assert splits == ["2026_01_02T03_04_05", "2026_02_03T04_05_06", "latest"]
    assert card["results"][-1]["path"] == card["results"][1]["path"]
    latest = datasets.load_dataset(str(out), "details_sample_qiskit", split="latest",
                                   cache_dir=tmp_path / "cache")
    older = datasets.load_dataset(str(out), "details_sample_qiskit", split="2026_01_02T03_04_05")
    assert set(latest["run"]) == {"model-a-refined"} and set(older["run"]) == {"model-a"}
    # the refinement run carries its histories and curve
    assert all(json.loads(h)[0]["round"] == 0 for h in latest["round_history"])
    refined = datasets.load_dataset(str(out), "results", split="latest")
    assert json.loads(refined[0]["refinement"])["solved_by_round"] == [0, 0]


def test_comparison_folder_becomes_comparison_configs(runs, tmp_path):
    first, _ = runs
    comparison = tmp_path / "cmp"
    (comparison / "tables").mkdir(parents=True)
    (comparison / "comparison.json").write_text("{}")
    (comparison / "tables" / "pass_at_k.csv").write_text("run,group,pass@1\nmodel-a,all,66.7\n")
    out = tmp_path / "hub"
    message = publish_runs([first, comparison], "me/qce-details", folder=out, dry_run=True)
    assert "comparison_pass_at_k" in message
    table = datasets.load_dataset(str(out), "comparison_pass_at_k", split="latest")
    assert table[0] == {"run": "model-a", "group": "all", "pass@1": "66.7"}


def test_cli_dry_run_and_push_to_hub_and_offline_upload(runs, tmp_path, capsys):
    first, second = runs
    out = tmp_path / "hub"
    assert main(["publish-run", str(first), str(second), "--repo-id", "me/x", "--out", str(out),
                 "--dry-run"]) == 0
    assert "nothing uploaded" in capsys.readouterr().out
    from quantum_codegen_eval.report import Report

    data = json.loads((first / "report.json").read_text())
    report = Report(**{k: data[k] for k in ("benchmark", "config", "summary", "per_problem",
                                             "per_sample", "signatures")})
    pushed = report.push_to_hub("me/x", folder=tmp_path / "pushed", dry_run=True)
    assert "details_sample_qiskit" in pushed
    assert main(["publish-run", str(first), "--repo-id", "nope", "--out", str(out)]) == 3
    # offline: one line naming the repository, no traceback, exit 1; the folder stays built
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_TOKEN": "hf_test_token_offline"}
    proc = subprocess.run([sys.executable, "-m", "quantum_codegen_eval.cli", "publish-run",
                           str(first), "--repo-id", "me/x", "--out", str(tmp_path / "off")],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 1, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert lines[0].startswith("qce publish-run: could not upload ") and "datasets/me/x" in lines[0]
    assert "UploadFailed" not in lines[0]  # publish's one line, not wrapped again
    assert (tmp_path / "off" / "README.md").is_file()
    shutil.rmtree(tmp_path / "off")
