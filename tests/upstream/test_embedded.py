"""The embedded default: no data folder -> the dataset is built in the cache on first use, the
user is told once where it went; offline with an empty cache -> one line, exit 2. And prompts."""

from __future__ import annotations

import json

import pytest

from quantum_codegen_eval.benchmarks import load_benchmark
from quantum_codegen_eval.benchmarks.base import get
from quantum_codegen_eval.cli import main
from quantum_codegen_eval.datasets_cache import DataUnavailable, dataset_dir

pytestmark = pytest.mark.upstream


@pytest.fixture
def cache(tmp_path, monkeypatch, github_url):
    monkeypatch.setenv("QCE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_first_use_builds_once_and_says_where(cache, capsys):
    ds = load_benchmark("qcoder", "problems")
    assert ds.num_rows == 67 and ds[0]["id"] == "QPC001_A1"
    err = capsys.readouterr().err
    folder = dataset_dir(get("qcoder"), quiet=True)
    assert folder.is_relative_to(cache / "datasets" / "qcoder")
    assert err.count("built the qcoder dataset into") == 1 and str(folder) in err
    assert load_benchmark("qcoder").num_rows == 67
    assert "built the" not in capsys.readouterr().err
    assert sorted(p.name for p in (cache / "datasets" / "qcoder").iterdir()) == [folder.name]
    for kind in ("datasets", "downloads"):  # expected outputs stay out of the sandbox user's reach
        assert (cache / kind).stat().st_mode & 0o777 == 0o700, kind


def test_offline_without_cache_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("QCE_CACHE", str(tmp_path / "empty"))
    monkeypatch.setenv("QCE_GITHUB_URL", "file:///nonexistent/mirror")
    with pytest.raises(DataUnavailable, match="qce build qiskit_humaneval --source"):
        load_benchmark("qiskit_humaneval", "normal")
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"id": "QPC001_A1", "completion": "x"}) + "\n")
    for argv in (["prompts", "qcoder", "--out", str(tmp_path / "x.jsonl")],
                 ["evaluate", str(preds), "--benchmark", "qcoder", "--out", str(tmp_path / "r")],
                 ["judge", "qcoder", "QPC001_A1", str(preds)]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip()
        errors = [line for line in err.splitlines() if line.startswith("qce ")]
        assert len(errors) == 1 and "Traceback" not in err, err  # (progress lines aside)
        assert "not in the cache" in errors[0]
        assert "qce build qcoder --source PATH --out DIR" in errors[0]


def test_prompts_are_the_benchmarks_protocol(cache, tmp_path, capsys):
    from quantum_codegen_eval.benchmarks import qcoder, qiskit_humaneval

    out = tmp_path / "p.jsonl"
    assert main(["prompts", "qcoder", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    recs = qcoder.problems()
    assert [r["id"] for r in rows] == list(recs) and len(rows) == 67
    a1 = recs["QPC001_A1"]
    # the QCoder paper (upstream generate_and_judge.py): rules.txt followed by the statement file
    assert rows[0]["prompt"] == a1.rules + a1.statement and a1.signature in rows[0]["prompt"]
    assert "Permitted Modules" in rows[0]["prompt"].split("## Problem Statement")[0]

    assert main(["prompts", "qiskit_humaneval", "--config", "hard", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    hard = qiskit_humaneval.problems("hard")
    assert len(rows) == 151 and all(r["prompt"] == hard[r["id"]].prompt for r in rows)
    capsys.readouterr()
    assert main(["prompts", "qcoder", "--out", "-"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 67
