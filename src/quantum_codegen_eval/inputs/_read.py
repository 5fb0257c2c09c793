"""Choosing a reader: the format named, or told from the file's content."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..predictions import PredictionsError, Sample, jsonl_rows, read_predictions

#: the values of ``input_format`` (``qce evaluate --input-format``)
FORMATS = ("auto", "jsonl", "lm-eval", "openai-batch", "inspect")
_SNIFF_LINES = 50  # JSONL lines looked at by ``auto``
_ZIP = b"PK\x03\x04"  # an inspect ``.eval`` log is a zip archive


class InputFormatError(PredictionsError):
    """The file's format is unknown or ambiguous, or not the one named (one line, naming it)."""


@dataclass(frozen=True)
class Inputs:
    """What a file held: the samples to judge, and the requests the generating tool reports as
    failed (``missing``: one message each, naming the line or sample; never judged)."""

    samples: list[Sample]
    format: str
    missing: list[str] = field(default_factory=list)


def read_input(path: str | Path, input_format: str = "auto") -> Inputs:
    """The samples of the file at ``path`` in ``input_format`` (one of :data:`FORMATS`)."""
    path = Path(path)
    if input_format not in FORMATS:
        raise InputFormatError(f"unknown input format {input_format!r}; known: {', '.join(FORMATS)}")
    if not path.is_file():
        raise PredictionsError(f"predictions file not found: {path}")
    fmt = detect_format(path) if input_format == "auto" else input_format
    if fmt == "jsonl":
        return Inputs(read_predictions(path), fmt)
    if fmt == "lm-eval":
        from .lm_eval import read
    elif fmt == "openai-batch":
        from .openai_batch import read
    else:
        from .inspect_log import read
    samples, missing = read(path)
    return Inputs(samples, fmt, missing)


def _signature(row: Mapping) -> str | None:
    """The format a JSON object of a line belongs to, or None."""
    if "custom_id" in row and ("response" in row or "error" in row):
        return "openai-batch"
    if "doc_id" in row and ("resps" in row or "filtered_resps" in row):
        return "lm-eval"
    if any(k in row for k in ("id", "task_id", "problem_id", "completion", "code", "generation")):
        return "jsonl"
    return None


def detect_format(path: Path) -> str:
    """The format of ``path`` told from its content; :class:`InputFormatError` when unknown or
    ambiguous. A file with no readable object (empty, not JSON) is our JSONL: its reader
    reports each line."""
    with path.open("rb") as fh:
        head = fh.read(len(_ZIP))
    if head == _ZIP:
        return "inspect"
    if path.suffix != ".jsonl":
        try:
            data = json.loads(path.read_bytes().decode("utf-8-sig"))
        except (ValueError, RecursionError):
            data = None  # not one JSON document: maybe JSON lines under another name
        if isinstance(data, Mapping) and "eval" in data and "version" in data:
            return "inspect"
        if data is not None:
            return "jsonl"  # our {id: [completions]} or a list of rows
    found: dict[str, str] = {}
    objects = 0
    for n, (source, row) in enumerate(jsonl_rows(path)):
        if n >= _SNIFF_LINES:
            break
        if isinstance(row, Mapping):
            objects += 1
            sig = _signature(row)
            if sig is not None:
                found.setdefault(sig, source)
    if len(found) > 1:
        seen = ", ".join(f"{fmt} ({where})" for fmt, where in found.items())
        raise InputFormatError(f"{path}: ambiguous input format, lines look like {seen}; "
                               "name it with --input-format")
    if found:
        return next(iter(found))
    if objects:
        raise InputFormatError(f"{path}: unknown input format (no line is a prediction row, an "
                               "lm-eval sample or an OpenAI batch result); name it with "
                               f"--input-format ({', '.join(FORMATS[1:])})")
    return "jsonl"
