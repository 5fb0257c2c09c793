"""The PennySynth schema and loader, on a sample written for these tests (data/sample.jsonl)."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest
import yaml

from quantum_codegen_eval.benchmarks import load_benchmark
from quantum_codegen_eval.benchmarks import pennysynth as ps
from quantum_codegen_eval.loaders import pennysynth as builder

SAMPLE = Path(__file__).parent / "data" / "sample.jsonl"


def _rows() -> list[dict]:
    return [json.loads(line) for line in SAMPLE.read_text().splitlines()]


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_sample_loads_from_jsonl_and_parquet(tmp_path):
    ds = load_benchmark("pennysynth-13k", data_dir=SAMPLE)
    assert ds.num_rows == 6
    pq = tmp_path / "sample.parquet"
    ds.to_parquet(str(pq))
    again = ps.problems(data_dir=pq)
    assert list(again) == [f"ps-000{i}" for i in range(1, 7)]
    ex = again["ps-0001"]
    assert isinstance(ex, ps.Example) and ex.verified and ex.cluster_size == 2
    assert ps.prompt(ex).startswith("Create a two-qubit Bell state")
    assert "qml.CNOT(wires=[0, 1])" in ps.reference_code(ex)
    assert not ps.get_problem("ps-0006", data_dir=SAMPLE).verified
    assert {e.source_category for e in again.values()} == set(ps.SOURCE_CATEGORIES)


def test_build_from_a_file_gives_a_dataset_folder(tmp_path):
    out = tmp_path / "folder"
    summary = builder.build(str(SAMPLE), out)
    assert summary["counts"] == {"kept": 6}
    header = yaml.safe_load((out / "README.md").read_text().split("---\n")[1])
    assert header["configs"][0]["config_name"] == "default"
    assert [f["name"] for f in header["dataset_info"]["features"]] == list(ps.FEATURES)
    ds = datasets.load_dataset(str(out), split="train")
    assert ds.num_rows == 6 and ds.features["cluster_size"].dtype == "int32"
    assert ps.problems(data_dir=out)["ps-0003"].source_category == "qhack_archive"


@pytest.mark.parametrize("change, message", [
    ({"code": ""}, r"record 2 \(id 'ps-0003'\): field 'code' missing, empty"),
    ({"source_category": "blog"}, r"record 2 \(id 'ps-0003'\): source_category 'blog'"),
    ({"verification_status": "ok"}, r"record 2 \(id 'ps-0003'\): verification_status 'ok'"),
    ({"cluster_size": 0}, r"record 2 \(id 'ps-0003'\): cluster_size must be a positive int"),
    ({"id": "ps-0001"}, r"record 2: duplicate id 'ps-0001'"),
])
def test_bad_records_are_named(tmp_path, change, message):
    rows = _rows()
    rows[2].update(change)
    with pytest.raises(ValueError, match=message):
        ps.load(data_dir=_jsonl(tmp_path / "bad.jsonl", rows))


def test_missing_columns_and_paths(tmp_path):
    rows = [{k: v for k, v in r.items() if k != "dedup_cluster"} for r in _rows()]
    with pytest.raises(ValueError, match=r"columns \['dedup_cluster'\] missing"):
        ps.load(data_dir=_jsonl(tmp_path / "nocluster.jsonl", rows))
    with pytest.raises(FileNotFoundError, match="does not exist"):
        ps.load(data_dir=tmp_path / "nope.jsonl")
    (tmp_path / "x.csv").write_text("a\n")
    with pytest.raises(ValueError, match="not .jsonl, .json or .parquet"):
        ps.load(data_dir=tmp_path / "x.csv")
    with pytest.raises(ValueError, match="unknown options"):
        builder.build(None, tmp_path / "o", module="x")
