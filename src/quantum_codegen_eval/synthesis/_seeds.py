"""Seed material for synthesis: entries of a verified PennySynth corpus and the local QHack
archives (each challenge's statement and template)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Seed:
    """One snippet a synthesis prompt shows: its text, code and where it comes from."""

    id: str
    text: str  #: the instruction or statement
    code: str
    source_category: str  #: one of the PennySynth schema's categories


def corpus_seeds(corpus: str | Path) -> list[Seed]:
    """The verified entries of a PennySynth-schema corpus (folder, file or Hub id)."""
    from ..rag._corpus import load_corpus

    entries, _ = load_corpus(corpus)
    return [Seed(e.id, e.instruction, e.code, e.source_category) for e in entries]


def qhack_seeds(data_dir: str | Path | None = None, config: str = "all") -> list[Seed]:
    """Every QHack challenge of ``config``: its statement and template (``qhack_archive``)."""
    from ..benchmarks import qhack

    records: dict[str, Any] = qhack.problems(config, data_dir=data_dir)
    return [Seed(f"qhack:{pid}", r.statement.strip(), r.template, "qhack_archive")
            for pid, r in records.items()]


def archive_seeds(data_dirs: Mapping[str, Any]) -> list[Seed]:
    """The QHack archives' seeds, from ``data_dirs["qhack"]`` or the cache."""
    return qhack_seeds(data_dirs.get("qhack"))
