"""Build the Quantum Katas dataset folder from upstream JSONL.

The upstream repository cbjuan/QuantumKatas (Microsoft's QuantumKatas translated to Qiskit, MIT)
is read in its own layout (``dataset/quantum_katas.jsonl``, ``LICENSE``) at the commit pinned in
``REPOSITORIES``, every file verified against the shipped manifest; ``source`` None downloads it.
The output is ``data/default/test-*.parquet`` (the upstream fields and ``category``), the
upstream ``LICENSE`` (MIT: redistributions carry it) and a ``README.md`` card, so that
``datasets.load_dataset(out, split="test")`` works offline and ``qce publish`` can upload it.

>>> summary = build(None, "/tmp/katas")  # doctest: +SKIP
>>> summary["counts"]  # doctest: +SKIP
{'default': 350}
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from quantum_codegen_eval import upstream
from quantum_codegen_eval.benchmarks.quantum_katas import CONFIGS, FIELDS, SPLIT, task_from_row
from quantum_codegen_eval.benchmarks.quantum_katas import features as _features
from quantum_codegen_eval.dataset_cards import card_body, yaml_header
from quantum_codegen_eval.upstream import Repo, Tree

FILE = "dataset/quantum_katas.jsonl"
LICENSE = "LICENSE"
KEY = "quantum_katas"
REPOSITORIES = {KEY: Repo("cbjuan", "QuantumKatas", "1cfd5f4bc86af5e84d5b1bcf87293d0ece37579a")}
PROBES = {KEY: FILE}


class SourceError(ValueError):
    """Upstream material that cannot be read; the message names the file and line."""


def records_from_tree(tree: Tree) -> list[dict[str, str]]:
    """The rows, in upstream order, validated (string fields, unique ids), with ``category``."""
    where = f"{tree.repo.slug}: {FILE}"
    rows, seen = [], set()
    for n, line in enumerate(tree.read_text(FILE).splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SourceError(f"{where}: line {n}: not valid JSON: {exc}") from exc
        if not isinstance(rec, dict):
            raise SourceError(f"{where}: line {n}: not an object")
        try:
            task = task_from_row(rec)
        except ValueError as exc:
            raise SourceError(f"{where}: line {n}: {exc}") from exc
        if task.task_id in seen:
            raise SourceError(f"{where}: line {n}: duplicate task_id {task.task_id!r}")
        seen.add(task.task_id)
        rows.append({**{f: rec[f] for f in FIELDS}, "category": task.category})
    return rows


def manifest_entries(trees: dict[str, Tree]) -> list[dict[str, Any]]:
    """Per-problem facts for the manifest (reads every file the builder reads)."""
    tree = trees[KEY]
    tree.read_bytes(LICENSE)
    return [{"id": row["task_id"], "repository": KEY, "path": FILE}
            for row in records_from_tree(tree)]


def card_yaml(count: int, size: int, commit: str) -> str:
    """The YAML header of the card (config, features, split size, the upstream commit)."""
    cfg = CONFIGS[0]
    header = {
        "pretty_name": "Quantum Katas (Qiskit)",
        "language": ["en"], "license": "mit", "task_categories": ["text-generation"],
        "tags": ["quantum-computing", "qiskit", "code-generation", "benchmark",
                 "quantum-katas"],
        "source_datasets": [f"https://github.com/cbjuan/QuantumKatas/tree/{commit}"],
        "configs": [{"config_name": cfg, "default": True,
                     "data_files": [{"split": SPLIT, "path": f"data/{cfg}/*.parquet"}]}],
        "dataset_info": [{"config_name": cfg, "features": _features()._to_yaml_list(),
                          "splits": [{"name": SPLIT, "num_bytes": size,
                                      "num_examples": count}]}],
    }
    return yaml_header(header)


def build(source: str | Path | None, out: str | Path, *, github_url: str | None = None,
          progress: bool = True, **options: Any) -> dict[str, Any]:
    """Write the dataset folder; returns {dataset, out, counts, configs, split, upstream}.

    ``source``: a local copy of the upstream repository (checkout, unpacked archive, a folder
    holding it, or its .tar.gz); None downloads it at the pinned commit.
    """
    import datasets

    if options:
        raise ValueError(f"quantum_katas builder takes no options, got {sorted(options)}")
    with upstream.open_trees(upstream.load_manifest("quantum_katas"), source,
                             github_url=github_url, progress=progress) as trees:
        tree = trees[KEY]
        rows = records_from_tree(tree)
        licence = tree.read_bytes(LICENSE)
    out = Path(out)
    folder = out / "data" / CONFIGS[0]
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.parquet"):
        old.unlink()
    ds = datasets.Dataset.from_list(rows, features=_features())
    ds.to_parquet(str(folder / f"{SPLIT}-00000-of-00001.parquet"))
    (out / "LICENSE").write_bytes(licence)  # MIT: copies carry the notice
    (out / "README.md").write_text(card_yaml(len(rows), ds.data.nbytes, tree.commit)
                                   + card_body("quantum_katas"), encoding="utf-8")
    return {"dataset": "quantum_katas", "out": str(out), "counts": {CONFIGS[0]: len(rows)},
            "configs": list(CONFIGS), "split": SPLIT, "upstream": f"{tree.repo.slug}@{tree.commit}"}
