"""Build the Qiskit HumanEval dataset folder (configs ``normal`` and ``hard``) from upstream JSON.

The upstream repository qiskit-community/qiskit-human-eval is read in its own layout
(``dataset/dataset_qiskit_test_human_eval.json``, ``dataset/dataset_qiskit_test_human_eval_hard.json``,
``LICENSE``) at the commit pinned in ``REPOSITORIES``, every file verified against the shipped
manifest; ``source`` None downloads it. The output is ``data/<config>/test-*.parquet``,
the upstream ``LICENSE`` (Apache-2.0) and a ``README.md`` card whose YAML declares both configs,
so that ``datasets.load_dataset(out, "hard", split="test")`` works offline.

>>> summary = build(None, "/tmp/qhe")  # doctest: +SKIP
>>> summary["counts"]  # doctest: +SKIP
{'normal': 151, 'hard': 151}
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from quantum_codegen_eval import upstream
from quantum_codegen_eval.benchmarks.qiskit_humaneval import (
    CONFIGS,
    FIELDS,
    SPLIT,
    check_mode,
    task_from_row,
    unrunnable_reason,
)
from quantum_codegen_eval.benchmarks.qiskit_humaneval import features as _features
from quantum_codegen_eval.dataset_cards import card_body, yaml_header
from quantum_codegen_eval.upstream import Repo, Tree

FILES = {"normal": "dataset/dataset_qiskit_test_human_eval.json",
         "hard": "dataset/dataset_qiskit_test_human_eval_hard.json"}
LICENSE = "LICENSE"
KEY = "qiskit_humaneval"
REPOSITORIES = {KEY: Repo("qiskit-community", "qiskit-human-eval",
                          "5327d8e079db5e8b51b85e2acafbb67e36ba2777")}
PROBES = {KEY: FILES["normal"]}


class SourceError(ValueError):
    """Upstream material that cannot be read; the message names the file and record."""


def records_from_tree(tree: Tree) -> dict[str, list[dict[str, str]]]:
    """{config: rows}, in upstream order, validated (string fields, unique ids)."""
    out: dict[str, list[dict[str, str]]] = {}
    for cfg in CONFIGS:
        path = FILES[cfg]
        where = f"{tree.repo.slug}: {path}"
        try:
            data = json.loads(tree.read_text(path))
        except json.JSONDecodeError as exc:
            raise SourceError(f"{where}: not valid JSON: {exc}") from exc
        if not isinstance(data, list):
            raise SourceError(f"{where}: expected a JSON list of task records")
        rows, seen = [], set()
        for i, rec in enumerate(data):
            if not isinstance(rec, dict):
                raise SourceError(f"{where}: record {i} is not an object")
            try:
                task = task_from_row(rec, cfg)
            except ValueError as exc:
                raise SourceError(f"{where}: record {i}: {exc}") from exc
            if task.task_id in seen:
                raise SourceError(f"{where}: record {i}: duplicate task_id {task.task_id!r}")
            seen.add(task.task_id)
            rows.append({f: rec[f] for f in FIELDS})
        out[cfg] = rows
    return out


def manifest_entries(trees: dict[str, Tree]) -> list[dict[str, Any]]:
    """Per-problem facts for the manifest (reads every file the builder reads)."""
    tree = trees[KEY]
    tree.read_bytes(LICENSE)
    return [{"id": f"{cfg}:{row['task_id']}", "repository": KEY, "path": FILES[cfg]}
            for cfg, rows in records_from_tree(tree).items() for row in rows]


def _with_check_mode(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    from types import SimpleNamespace

    return [{**row, "check_mode": check_mode(SimpleNamespace(**row)),
             "unrunnable": unrunnable_reason(row["task_id"])} for row in rows]


def card_yaml(counts: dict[str, int], sizes: dict[str, int]) -> str:
    """The YAML header of the card (configs and dataset_info)."""
    feats = _features()._to_yaml_list()
    header = {
        "pretty_name": "Qiskit HumanEval",
        "language": ["en"], "license": "apache-2.0", "task_categories": ["text-generation"],
        "tags": ["quantum-computing", "qiskit", "code-generation", "benchmark"],
        "configs": [{"config_name": cfg,
                     "data_files": [{"split": SPLIT, "path": f"data/{cfg}/*.parquet"}],
                     **({"default": True} if cfg == CONFIGS[0] else {})} for cfg in CONFIGS],
        "dataset_info": [{"config_name": cfg, "features": feats,
                          "splits": [{"name": SPLIT, "num_bytes": sizes.get(cfg, 0),
                                      "num_examples": counts.get(cfg, 0)}]}
                         for cfg in CONFIGS],
    }
    return yaml_header(header)


def build(source: str | Path | None, out: str | Path, *, github_url: str | None = None,
          progress: bool = True, **options: Any) -> dict[str, Any]:
    """Write the dataset folder; returns {dataset, out, counts, configs, split}.

    ``source``: a local copy of the upstream repository (checkout, unpacked archive, a folder
    holding it, or its .tar.gz); None downloads it at the pinned commit.
    """
    import datasets

    if options:
        raise ValueError(f"qiskit_humaneval builder takes no options, got {sorted(options)}")
    with upstream.open_trees(upstream.load_manifest("qiskit_humaneval"), source,
                             github_url=github_url, progress=progress) as trees:
        tree = trees[KEY]
        recs = records_from_tree(tree)
        licence = tree.read_bytes(LICENSE)
    out = Path(out)
    counts: dict[str, int] = {}
    sizes: dict[str, int] = {}
    for cfg, rows in recs.items():
        folder = out / "data" / cfg
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.parquet"):
            old.unlink()
        ds = datasets.Dataset.from_list(_with_check_mode(rows), features=_features())
        ds.to_parquet(str(folder / f"{SPLIT}-00000-of-00001.parquet"))
        counts[cfg] = len(rows)
        sizes[cfg] = ds.data.nbytes
    (out / "LICENSE").write_bytes(licence)  # Apache-2.0 section 4: redistributions carry it
    (out / "README.md").write_text(card_yaml(counts, sizes) + card_body("qiskit_humaneval"), encoding="utf-8")
    return {"dataset": "qiskit_humaneval", "out": str(out), "counts": counts,
            "configs": list(CONFIGS), "split": SPLIT,
            "upstream": f"{tree.repo.slug}@{tree.commit}"}
