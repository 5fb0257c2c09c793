"""The shipped manifests are exactly what the generator makes from the real upstream archives."""

from __future__ import annotations

import importlib
import json

import pytest

from quantum_codegen_eval import upstream
from quantum_codegen_eval.loaders import make_manifest

pytestmark = pytest.mark.upstream


@pytest.mark.parametrize("benchmark", make_manifest.BENCHMARKS)
def test_shipped_manifest_matches_upstream(benchmark, github_url):
    mod = importlib.import_module(f"quantum_codegen_eval.loaders.{benchmark}")
    if not hasattr(mod, "manifest_entries"):
        pytest.skip(f"loaders/{benchmark}.py does not read the upstream repositories yet")
    shipped = upstream.manifest_path(benchmark)
    assert shipped.is_file(), f"no shipped manifest for {benchmark}: run loaders/make_manifest.py"
    made = make_manifest.make_manifest(benchmark)
    assert make_manifest.dumps(made) == shipped.read_text(encoding="utf-8")
    m = upstream.Manifest.from_dict(made)
    ids = [p["id"] for p in m.problems]
    assert len(ids) == len(set(ids)) and ids
    for p in m.problems:  # every problem points into a listed repository
        assert p["repository"] in m.repositories, p["id"]
    for files in m.files.values():
        assert files and all(len(sha) == 40 for sha in files.values())


def test_counts():
    qc = json.loads(upstream.manifest_path("qcoder").read_text())
    assert len(qc["problems"]) == 67
    assert len(qc["repositories"]["qcoder"]["files"]) == 68  # 67 statements + rules.txt
    he = json.loads(upstream.manifest_path("qiskit_humaneval").read_text())
    assert len(he["problems"]) == 302
    assert sorted(he["repositories"]["qiskit_humaneval"]["files"]) == [
        "LICENSE", "dataset/dataset_qiskit_test_human_eval.json",
        "dataset/dataset_qiskit_test_human_eval_hard.json"]


def test_check_mode_reports_a_stale_manifest(github_url, tmp_path, capsys):
    (tmp_path / "qcoder.json").write_text("{}\n")
    assert make_manifest.main(["--check", "--out", str(tmp_path), "qcoder"]) == 1
    assert "DIFFERS" in capsys.readouterr().out
    assert make_manifest.main(["--out", str(tmp_path), "qcoder"]) == 0
    assert make_manifest.main(["--check", "--out", str(tmp_path), "qcoder"]) == 0
