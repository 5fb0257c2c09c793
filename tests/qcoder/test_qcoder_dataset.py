"""The QCoder dataset folder: Parquet configs, the card, submissions and revisions."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest
import yaml

from quantum_codegen_eval.benchmarks import load_benchmark
from quantum_codegen_eval.benchmarks import qcoder as bench
from quantum_codegen_eval.loaders import qcoder as loader

pytestmark = pytest.mark.upstream
DATA = Path(__file__).parent / "data"


def test_load_dataset_offline(qcoder_data):
    ds = datasets.load_dataset(str(qcoder_data), "problems", split="test")
    assert len(ds) == 67 and ds[0]["id"] == "QPC001_A1"
    assert load_benchmark("qcoder", "problems", data_dir=qcoder_data)[15]["id"] == "QPC002_A5"
    rec = bench.get_problem("QPC002_A5", data_dir=qcoder_data)
    assert rec.depth_limit == 6 and rec.global_phase == "ignored" and rec.kind == "state_preparation"
    assert bench.prompt(rec).startswith("Solve the following problem.") and rec.statement in bench.prompt(rec)
    assert "def solve" in bench.reference_code(rec)
    with pytest.raises(KeyError, match="QPC009_Z1"):
        bench.get_problem("QPC009_Z1", data_dir=qcoder_data)


def test_card_declares_configs_and_features(qcoder_data):
    head = (qcoder_data / "README.md").read_text().split("---\n")[1]
    meta = yaml.safe_load(head)
    assert [c["config_name"] for c in meta["configs"]] == list(loader.CONFIGS)
    for info in meta["dataset_info"]:
        declared = datasets.Features._from_yaml_list(info["features"])
        assert declared == loader.features(info["config_name"]), info["config_name"]
        built = datasets.load_dataset(str(qcoder_data), info["config_name"],
                                      split=loader.SPLITS[info["config_name"]])
        assert built.features == declared


def test_submissions_and_revisions(qcoder_data):
    subs = load_benchmark("qcoder", "submissions", data_dir=qcoder_data)
    revs = {(r["problem"], r["user"]): r for r in load_benchmark("qcoder", "revisions", data_dir=qcoder_data)}
    assert len(subs) == 6 and len(revs) == 3
    bob = revs[("QPC002_B3", "bob")]
    assert bob["submission_orders"] == [3, 5, 7] and bob["results"] == ["UGE", "WA", "AC"]
    assert bob["first_ac_index"] == 2 and bob["num_versions"] == 3
    assert bob["codes"][0].startswith("from qiskit import QuantumCircuit") and "```" not in bob["codes"][0]
    assert revs[("QPC003_A1", "alice")]["first_ac_index"] is None
    assert revs[("QPC001_A1", "alice")]["first_ac_index"] == 1
    row = next(r for r in subs if r["problem"] == "QPC001_A1" and r["version_index"] == 0)
    assert row["result"] == "WA" and row["code"].startswith("I will apply X.")
    assert "qc.x(0)" in row["extracted_code"] and "I will" not in row["extracted_code"]


def test_no_submissions_leaves_configs_out(qcoder_source, tmp_path):
    summary = loader.build(qcoder_source, tmp_path)
    assert summary["rows"] == {"problems": 67, "submissions": 0, "revisions": 0}
    meta = yaml.safe_load((tmp_path / "README.md").read_text().split("---\n")[1])
    assert [c["config_name"] for c in meta["configs"]] == ["problems"]


def test_bad_submissions_are_named(qcoder_source, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"problem": "QPC001_A1", "result": "AC", "user": "u",
                               "submission_order": 1, "code": "x"}) + "\n"
                   + json.dumps({"problem": "QPC001_A1", "user": "u"}) + "\n")
    with pytest.raises(loader.QCoderSourceError, match=r"bad.jsonl:2: missing field\(s\) result"):
        loader.build(qcoder_source, tmp_path / "out", submissions=str(bad))
    with pytest.raises(loader.QCoderSourceError, match="neither a file, 'hub' nor a Hub id"):
        loader.read_submissions(str(tmp_path / "missing" / "x.jsonl"))
    with pytest.raises(loader.QCoderSourceError, match="unknown option"):
        loader.build(qcoder_source, tmp_path / "out", sumbissions="x")


def test_sample_file_has_the_real_schema():
    for line in (DATA / "sample_submissions.jsonl").read_text().splitlines():
        row = json.loads(line)
        assert set(row) == set(loader.SUBMISSION_FIELDS) and "```python" in row["code"]


def test_cli_build(qcoder_source, tmp_path, capsys):
    from quantum_codegen_eval.cli import main

    assert main(["build", "qcoder", "--source", str(qcoder_source), "--out", str(tmp_path),
                 "--option", f"submissions={DATA / 'sample_submissions.jsonl'}"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"]["revisions"] == 3


def test_hub_submissions_offline_is_one_clear_line(qcoder_source, tmp_path, monkeypatch, capsys):
    import huggingface_hub.constants

    from quantum_codegen_eval.cli import main

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # the Hub is unreachable here; make it immediate
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    rc = main(["build", "qcoder", "--source", str(qcoder_source), "--out", str(tmp_path / "o"),
               "--option", "submissions=hub"])
    err = capsys.readouterr().err.strip()
    assert rc == 3 and len(err.splitlines()) == 1, err
    assert "tm0012-QCB/QCoderBenchmark" in err and "--option submissions=PATH" in err
