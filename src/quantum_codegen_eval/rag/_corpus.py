"""Reading a retrieval corpus: any PennySynth-schema dataset (a folder, a JSONL / JSON / Parquet
file, or a Hub id), checked row by row against the schema."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..benchmarks import pennysynth


def load_corpus(corpus: str | Path) -> tuple[list[pennysynth.Example], int]:
    """The verified entries of ``corpus`` (only ``verification_status == "passed"`` are
    retrieved) and how many unverified entries were left out."""
    path = Path(corpus)
    if path.exists():
        rows = pennysynth.problems(data_dir=path).values()
    elif "/" in str(corpus) and not str(corpus).startswith((".", "/")):
        rows = _hub(str(corpus))
    else:
        raise FileNotFoundError(f"corpus {corpus}: no such file or folder (nor a Hub id)")
    rows = list(rows)
    kept = [r for r in rows if r.verified]
    if not kept:
        raise ValueError(f"corpus {corpus}: no verified entries (of {len(rows)})")
    return kept, len(rows) - len(kept)


def _hub(hub_id: str) -> list[pennysynth.Example]:
    import datasets

    ds = datasets.load_dataset(hub_id, split=pennysynth.SPLIT)
    return [pennysynth.validate_row(row, f"{hub_id} record {i}") for i, row in enumerate(ds)]


def document(entry: pennysynth.Example) -> str:
    """What the retrievers index: the instruction, then the code."""
    return f"{entry.instruction}\n{entry.code}"


def fingerprint(entries: list[pennysynth.Example]) -> str:
    """A short hash of the entries retrieval saw (ids and code), for the run's provenance."""
    h = hashlib.sha256()
    for e in entries:
        h.update(e.id.encode() + b"\0" + e.code.encode() + b"\0")
    return h.hexdigest()[:16]


def as_entries(entries: list[pennysynth.Example]) -> list[tuple[str, str]]:
    """``(id, code)`` pairs, the form :func:`..contamination.contamination` compares."""
    return [(e.id, e.code) for e in entries]
