"""The builder and the benchmark module: folder layout, offline loading, precise errors."""

from __future__ import annotations

import json
import shutil

import datasets
import pytest
import yaml

from quantum_codegen_eval.benchmarks import load_benchmark
from quantum_codegen_eval.benchmarks import qiskit_humaneval as qhe
from quantum_codegen_eval.loaders import qiskit_humaneval as builder
from quantum_codegen_eval.upstream import Tree, VerificationError


def _task(n: int, **over) -> dict:
    rec = {"task_id": f"qiskitHumanEval/{n}", "prompt": f"def f{n}():\n    \"\"\"Doc.\"\"\"\n",
           "canonical_solution": "    return 1\n",
           "test": "def check(candidate):\n    assert candidate() == 1\n",
           "entry_point": f"f{n}", "difficulty_scale": "basic"}
    rec.update(over)
    return rec


def _write(folder, normal, hard):
    for cfg, rows in (("normal", normal), ("hard", hard)):
        (folder / builder.FILES[cfg]).parent.mkdir(parents=True, exist_ok=True)
        (folder / builder.FILES[cfg]).write_text(json.dumps(rows))
    return folder


def _records(folder):
    """The builder's record reading over an unverified tree (own records, not upstream's)."""
    return builder.records_from_tree(Tree(builder.REPOSITORIES[builder.KEY], folder))


def test_folder_loads_offline_with_both_configs(qhe_dir):
    card = (qhe_dir / "README.md").read_text()
    header = yaml.safe_load(card.split("---\n")[1])
    assert [c["config_name"] for c in header["configs"]] == ["normal", "hard"]
    assert header["license"] == "apache-2.0"
    assert "Apache License" in (qhe_dir / "LICENSE").read_text()
    for cfg in qhe.CONFIGS:
        ds = datasets.load_dataset(str(qhe_dir), cfg, split="test")
        assert ds.num_rows == 151
        assert set(ds.column_names) == {*qhe.FIELDS, "check_mode", "unrunnable"}
        assert set(ds["check_mode"]) == {"proxy", "proxy_unsupported"}
    hard = load_benchmark("qiskit_humaneval", "hard", data_dir=qhe_dir)
    assert "check(" in hard[0]["test"].split("def check", 1)[1]


def test_problems_are_typed_and_configs_differ(qhe_dir):
    normal = qhe.problems("normal", data_dir=qhe_dir)
    hard = qhe.problems("hard", data_dir=qhe_dir)
    assert len(normal) == len(hard) == 151 and normal.keys() == hard.keys()
    t = normal["qiskitHumanEval/0"]
    assert isinstance(t, qhe.Task) and t.config == "normal"
    assert qhe.prompt(t).startswith("from qiskit") and "def " in qhe.prompt(t)
    assert qhe.reference_code(t) == t.prompt + t.canonical_solution
    h = qhe.get_problem("hard:qiskitHumanEval/0", data_dir=qhe_dir)
    assert h.config == "hard" and qhe.reference_code(h) == h.canonical_solution
    assert "def " not in qhe.prompt(h).split("\n")[0]
    with pytest.raises(KeyError, match="qiskitHumanEval/999"):
        qhe.get_problem("qiskitHumanEval/999", data_dir=qhe_dir)
    with pytest.raises(ValueError, match="unknown qiskit_humaneval config 'easy'"):
        qhe.load("easy", data_dir=qhe_dir)


def test_own_records_are_read_in_upstream_layout(tmp_path):
    recs = _records(_write(tmp_path / "src", [_task(0), _task(1)], [_task(0)]))
    assert [len(recs["normal"]), len(recs["hard"])] == [2, 1]
    assert recs["normal"][1]["entry_point"] == "f1"


def test_build_from_a_checkout_and_a_tampered_copy(upstream, tmp_path):
    (root,) = (upstream / "qiskit_humaneval").iterdir()
    summary = builder.build(root, tmp_path / "out", progress=False)
    assert summary["counts"] == {"normal": 151, "hard": 151}
    assert summary["upstream"].endswith(builder.REPOSITORIES[builder.KEY].commit)
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    path = copy / builder.FILES["hard"]
    path.write_text(path.read_text().replace("qiskit", "qiskat", 1))
    with pytest.raises(VerificationError, match="dataset_qiskit_test_human_eval_hard.json does "
                       "not match the manifest"):
        builder.build(copy, tmp_path / "out2", progress=False)
    assert not (tmp_path / "out2").exists()


@pytest.mark.parametrize("bad, message", [
    ([_task(0), _task(0)], "record 1: duplicate task_id 'qiskitHumanEval/0'"),
    ([_task(0), _task(1, test=None)], "record 1: .*'qiskitHumanEval/1'.*field 'test'"),
    ([_task(0), ["not", "a", "dict"]], "record 1 is not an object"),
    ({"task_id": "x"}, "expected a JSON list"),
])
def test_bad_records_name_the_file_and_record(tmp_path, bad, message):
    _write(tmp_path, bad, [_task(0)])
    with pytest.raises(builder.SourceError, match="dataset_qiskit_test_human_eval.json: " + message):
        _records(tmp_path)


def test_missing_file_and_options_are_errors(tmp_path):
    with pytest.raises(VerificationError, match="dataset_qiskit_test_human_eval.json is missing"):
        _records(tmp_path)
    with pytest.raises(ValueError, match="takes no options"):
        builder.build(tmp_path, tmp_path / "out", limit="3")
    with pytest.raises(ValueError, match=f"{tmp_path}: no copy of qiskit-community/qiskit-human-eval"):
        builder.build(tmp_path, tmp_path / "out")
    with pytest.raises(FileNotFoundError, match="not a qiskit_humaneval dataset folder"):
        qhe.load("normal", data_dir=tmp_path)
