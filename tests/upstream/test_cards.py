"""Every built dataset folder's card is one the Hub accepts and says exactly what the folder holds."""

from __future__ import annotations

from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest
import yaml
from huggingface_hub import DatasetCard, DatasetCardData

pytestmark = pytest.mark.upstream

SAMPLE_SUBMISSIONS = Path(__file__).parents[1] / "qcoder" / "data" / "sample_submissions.jsonl"
BUILDS = {"qiskit_humaneval": {}, "quantum_katas": {}, "qhack": {},
          "qcoder": {"submissions": str(SAMPLE_SUBMISSIONS)},
          "qcoder-problems-only": {}}
#: license identifiers the Hub lists (the ones these cards may use)
HUB_LICENSES = {"apache-2.0", "mit", "cc-by-4.0", "unknown", "other"}


@pytest.fixture(scope="module", params=sorted(BUILDS))
def folder(request, github_url, tmp_path_factory):
    """Built through the real download path (the archives from ``github_url``)."""
    from quantum_codegen_eval import upstream
    from quantum_codegen_eval.benchmarks.base import get
    from quantum_codegen_eval.datasets_cache import build_dataset

    if not upstream.manifest_path(request.param.split("-")[0]).is_file():
        pytest.skip("the QHack manifest arrives with the QHack builder's branch")
    out = tmp_path_factory.mktemp(request.param)
    build_dataset(get(request.param.split("-")[0]), out, progress=False, **BUILDS[request.param])
    return out


def test_card_is_accepted_and_matches_the_folder(folder):
    text = (folder / "README.md").read_text(encoding="utf-8")
    meta = yaml.safe_load(text.split("---\n")[1])
    DatasetCardData(**meta)  # raises on fields the Hub's card model rejects
    card = DatasetCard(text)
    assert card.data.to_dict()["configs"] == meta["configs"]

    lic = meta["license"]
    assert lic in HUB_LICENSES, lic
    assert lic != "other" or meta.get("license_name"), "license: other needs license_name"
    if lic == "unknown":
        assert "`license: unknown`" in card.text, "say why the licence is unknown"

    declared = {c["config_name"] for c in meta["configs"]}
    infos = {i["config_name"]: i for i in meta["dataset_info"]}
    assert set(infos) == declared
    parquet = {p for p in folder.rglob("*.parquet")}
    matched = set()
    for cfg in meta["configs"]:
        name = cfg["config_name"]
        splits = {s["name"]: s for s in infos[name]["splits"]}
        for entry in cfg["data_files"]:
            files = sorted(folder.glob(entry["path"]))
            assert files, f"{name}: data_files glob {entry['path']} matches nothing"
            matched |= set(files)
            rows = sum(pq.ParquetFile(f).metadata.num_rows for f in files)
            assert splits[entry["split"]]["num_examples"] == rows, (name, entry["split"])
            assert splits[entry["split"]]["num_bytes"] > 0
        info = datasets.load_dataset_builder(str(folder), name).info
        assert {s: info.splits[s].num_examples for s in splits} == {
            s: v["num_examples"] for s, v in splits.items()}, name
    assert matched == parquet, f"parquet files no config declares: {sorted(parquet - matched)}"
