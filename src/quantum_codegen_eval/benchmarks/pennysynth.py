"""PennySynth-13K: verified PennyLane instruction–code pairs (a training/reference corpus).

The paper's 13,389 pairs are not public yet. This module fixes the schema and reads it from a Hub
id, a dataset folder (as written by ``qce build pennysynth``), or a local JSONL/JSON/Parquet file.
There is no judge (the corpus has no tests); ``prompt`` and ``reference_code`` serve CodeBLEU and
ROUGE-L.

>>> ex = Example(id="ps-1", instruction="Make a Bell pair.", code="import pennylane as qml\\n",
...              source_category="official_docs", pennylane_version="0.45.1",
...              verification_status="passed", dedup_cluster="c-1")
>>> prompt(ex), ex.verified
('Make a Bell pair.', True)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

#: Assumed Hub id (the authors have not published the dataset; pass ``data_dir`` meanwhile).
HUB_ID = "PennySynth/PennySynth-13K"
CONFIGS = ("default",)
SPLIT = "train"
SOURCE_CATEGORIES = ("official_docs", "community_github", "qhack_archive")
VERIFICATION_STATUSES = ("passed", "failed", "timeout", "unverified")


@dataclass(frozen=True)
class Example:
    """One instruction–code pair."""

    id: str
    instruction: str
    code: str
    source_category: str
    pennylane_version: str
    verification_status: str
    dedup_cluster: str
    source_ref: str = ""
    cluster_size: int = 1

    @property
    def verified(self) -> bool:
        return self.verification_status == "passed"


REQUIRED = tuple(f.name for f in fields(Example) if f.name not in ("source_ref", "cluster_size"))
#: datasets feature types of the schema (the builder writes exactly these columns)
FEATURES = {"id": "string", "instruction": "string", "code": "string",
            "source_category": "string", "pennylane_version": "string",
            "verification_status": "string", "dedup_cluster": "string",
            "source_ref": "string", "cluster_size": "int32"}


def validate_row(row: dict[str, Any], where: str) -> Example:
    """A typed example; ``ValueError`` naming ``where`` (file and record) on a bad field."""
    rid = row.get("id", "<no id>") if isinstance(row, dict) else "<not an object>"
    if not isinstance(row, dict):
        raise ValueError(f"pennysynth {where}: record is not an object")
    for name in REQUIRED:
        value = row.get(name)
        if not isinstance(value, str) or (name != "instruction" and not value.strip()):
            raise ValueError(f"pennysynth {where} (id {rid!r}): field {name!r} missing, empty or "
                             f"not a string (got {type(value).__name__})")
    if row["source_category"] not in SOURCE_CATEGORIES:
        raise ValueError(f"pennysynth {where} (id {rid!r}): source_category "
                         f"{row['source_category']!r} not one of {SOURCE_CATEGORIES}")
    if row["verification_status"] not in VERIFICATION_STATUSES:
        raise ValueError(f"pennysynth {where} (id {rid!r}): verification_status "
                         f"{row['verification_status']!r} not one of {VERIFICATION_STATUSES}")
    size = row.get("cluster_size", 1)
    if size is None:
        size = 1
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise ValueError(f"pennysynth {where} (id {rid!r}): cluster_size must be a positive int")
    ref = row.get("source_ref") or ""
    return Example(**{k: row[k] for k in REQUIRED}, source_ref=str(ref), cluster_size=size)


def load(config: str | None = None, *, data_dir: Any = None, split: str | None = None):
    """The corpus as a ``datasets.Dataset``: Hub id, dataset folder, or a JSONL/JSON/Parquet file.

    Every row is checked against the schema (``ValueError`` naming the first bad record).
    """
    import datasets

    from ..datasets_cache import hf_cache_for

    if config not in (None, *CONFIGS):
        raise ValueError(f"unknown pennysynth config {config!r}; expected one of {CONFIGS}")
    split = split or SPLIT
    if data_dir is None:
        ds = datasets.load_dataset(HUB_ID, split=split)
        where = HUB_ID
    else:
        path = Path(data_dir)
        where = str(path)
        if path.is_file():
            kind = {".jsonl": "json", ".json": "json", ".parquet": "parquet"}.get(path.suffix)
            if kind is None:
                raise ValueError(f"pennysynth: {path} is not .jsonl, .json or .parquet")
            ds = datasets.load_dataset(kind, data_files={split: str(path)}, split=split,
                                       cache_dir=hf_cache_for(path))
        elif path.is_dir():
            ds = datasets.load_dataset(str(path), split=split, cache_dir=hf_cache_for(path))
        else:
            raise FileNotFoundError(f"pennysynth: {path} does not exist")
    missing = [c for c in REQUIRED if c not in ds.column_names]
    if missing:
        raise ValueError(f"pennysynth {where}: columns {missing} missing "
                         f"(has {ds.column_names})")
    seen: set[str] = set()
    for i, row in enumerate(ds):
        ex = validate_row(row, f"{where} record {i}")
        if ex.id in seen:
            raise ValueError(f"pennysynth {where} record {i}: duplicate id {ex.id!r}")
        seen.add(ex.id)
    return ds


def problems(config: str | None = None, *, data_dir: Any = None) -> dict[str, Example]:
    """Examples by id."""
    ds = load(config, data_dir=data_dir)
    return {row["id"]: validate_row(row, f"record {i}") for i, row in enumerate(ds)}


def get_problem(problem_id: str, *, data_dir: Any = None) -> Example:
    found = problems(data_dir=data_dir)
    if problem_id not in found:
        raise KeyError(f"pennysynth: no example {problem_id!r}")
    return found[problem_id]


def prompt(record: Example) -> str:
    """The instruction."""
    return record.instruction


def reference_code(record: Example) -> str:
    """The verified code."""
    return record.code


# ---------------------------------------------------------------- declaration

def _features(config: str):
    import datasets

    return datasets.Features({k: datasets.Value(v) for k, v in FEATURES.items()})


def _declare():
    from .base import Benchmark, extract_all_blocks, no_group

    return Benchmark(
        name="pennysynth", description="PennySynth-13K instruction-code pairs (no judge)",
        module=__name__, hub_id=HUB_ID, configs=CONFIGS, splits=dict.fromkeys(CONFIGS, SPLIT),
        record_type=Example, record_configs=CONFIGS, features=_features,
        language=lambda config: "pennylane", group_by="all", group=no_group, prompt=prompt,
        reference=reference_code, reference_kind=lambda r: "verified code",
        extract=extract_all_blocks, judge=None,  # the corpus carries no tests
        builder="quantum_codegen_eval.loaders.pennysynth", aliases=("pennysynth-13k",))


BENCHMARK = _declare()
