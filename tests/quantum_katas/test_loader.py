"""The builder and the benchmark module: the folder, its card (MIT, attribution, categories,
the upstream commit), offline loading, publishing checks, precise errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import datasets
import pytest
import yaml

from quantum_codegen_eval.benchmarks import get, load_benchmark
from quantum_codegen_eval.benchmarks import quantum_katas as qk
from quantum_codegen_eval.loaders import quantum_katas as builder
from quantum_codegen_eval.publish import check_dataset_folder
from quantum_codegen_eval.upstream import Tree

COMMIT = "1cfd5f4bc86af5e84d5b1bcf87293d0ece37579a"


def test_folder_loads_offline_and_the_card_is_publishable(katas_dir):
    card = (katas_dir / "README.md").read_text(encoding="utf-8")
    header = yaml.safe_load(card.split("---\n")[1])
    assert header["license"] == "mit"
    assert header["source_datasets"] == [f"https://github.com/cbjuan/QuantumKatas/tree/{COMMIT}"]
    assert header["dataset_info"][0]["splits"][0]["num_examples"] == 350
    assert "Microsoft" in card and "cbjuan/QuantumKatas" in card and COMMIT in card
    assert "Copyright (c) Microsoft Corporation" in (katas_dir / "LICENSE").read_text()
    ds = datasets.load_dataset(str(katas_dir), split="test")
    assert ds.num_rows == 350 and set(ds.column_names) == {*qk.FIELDS, "category"}
    counts = {c: ds["category"].count(c) for c in set(ds["category"])}
    assert len(counts) == 26 and sum(counts.values()) == 350
    for c, n in counts.items():  # the card's table of categories is upstream's
        assert f"| {c} | {n} |" in card, c
    assert check_dataset_folder(katas_dir) == ["default"]
    dry = subprocess.run([sys.executable, "-m", "quantum_codegen_eval", "publish",
                          str(katas_dir), "someone/quantum_katas", "--dry-run"],
                         capture_output=True, text=True, timeout=300)
    assert dry.returncode == 0, dry.stderr
    assert "warning" not in dry.stderr  # an MIT dataset: no licence warning


def test_problems_are_typed_and_grouped_by_category(katas_dir):
    tasks = qk.problems(data_dir=katas_dir)
    assert len(tasks) == 350
    t = qk.get_problem("BasicGates/1.1", data_dir=katas_dir)
    assert isinstance(t, qk.Task) and t.entry_point == "state_flip" and t.category == "BasicGates"
    bench = get("quantum_katas")
    assert bench.group_by == "category" and bench.group(t) == "BasicGates"
    assert bench.group(tasks["tutorials/Oracles/2.1"]) == "tutorials"
    assert bench.reference(t) == t.canonical_solution and "pass" in bench.prompt(t)
    assert load_benchmark("quantum_katas", data_dir=katas_dir).num_rows == 350
    with pytest.raises(KeyError, match="no task 'Nope/1'"):
        qk.get_problem("Nope/1", data_dir=katas_dir)


def _records(folder):
    return builder.records_from_tree(Tree(builder.REPOSITORIES[builder.KEY], folder))


@pytest.mark.parametrize(("line", "message"), [
    ("not json", "line 2: not valid JSON"),
    (json.dumps({"task_id": "A/1", "prompt": "", "canonical_solution": "", "test": ""}),
     "line 2: quantum_katas record 'A/1': field 'entry_point' missing"),
    (json.dumps({"task_id": "A/0", "prompt": "", "canonical_solution": "", "test": "",
                 "entry_point": "f"}), "line 2: duplicate task_id 'A/0'"),
    (json.dumps({"task_id": "A/1", "prompt": "", "canonical_solution": "", "test": "",
                 "entry_point": "f()"}), "is not a Python name"),
])
def test_bad_records_are_named(tmp_path, line, message):
    good = json.dumps({"task_id": "A/0", "prompt": "", "canonical_solution": "", "test": "",
                       "entry_point": "f"})
    (tmp_path / "dataset").mkdir()
    (tmp_path / builder.FILE).write_text(good + "\n" + line + "\n")
    with pytest.raises(builder.SourceError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _records(tmp_path)


def test_build_without_out_fills_the_cache_the_other_commands_read(github_url, tmp_path):
    """Issue 32's path as written: ``qce build quantum_katas``, then ``qce prompts`` with no data
    folder reads what it built (no second build, no network: the mirror is gone by then)."""
    env = {**os.environ, "QCE_CACHE": str(tmp_path / "cache")}
    qce = [sys.executable, "-m", "quantum_codegen_eval"]
    built = subprocess.run([*qce, "build", "quantum_katas", "--github-url", github_url],
                           capture_output=True, text=True, env=env, timeout=600)
    assert built.returncode == 0, built.stderr
    out = json.loads(built.stdout)
    assert out["cache"] is True and str(tmp_path / "cache") in out["out"]
    assert datasets.load_dataset(out["out"], split="test").num_rows == 350
    again = subprocess.run([*qce, "build", "quantum_katas", "--github-url", "file:///nonexistent"],
                           capture_output=True, text=True, env=env, timeout=600)
    assert again.returncode == 0 and json.loads(again.stdout)["out"] == out["out"], again.stderr
    prompts = subprocess.run([*qce, "prompts", "quantum_katas", "--out", "-"], capture_output=True,
                             text=True, env={**env, "QCE_GITHUB_URL": "file:///nonexistent"},
                             timeout=600)
    assert prompts.returncode == 0, prompts.stderr
    assert len(prompts.stdout.splitlines()) == 350
