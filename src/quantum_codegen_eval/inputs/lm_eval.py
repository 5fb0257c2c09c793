"""lm-eval ``--log_samples`` files (``samples_<task>_<date>.jsonl``): one line per doc.

The problem id is the doc's ``id`` (else ``task_id``, else ``problem_id``); the completions are
its ``filtered_resps`` (one per request, or a request's list of repeats), or its ``resps`` when
the filter kept fewer (``take_first`` of a task with ``repeats``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..predictions import Sample, jsonl_rows, read_rows

ID_FIELDS = ("id", "task_id", "problem_id")


def _completions(value: Any) -> list[Any]:
    """A ``resps`` / ``filtered_resps`` value as a flat list (requests, then their repeats)."""
    if not isinstance(value, list):
        return []
    return [c for item in value for c in (item if isinstance(item, list) else [item])]


def _rows(path: Path) -> Iterable[tuple[str, Any]]:
    for source, row in jsonl_rows(path):
        if not isinstance(row, Mapping):
            yield source, row
            continue
        doc = row.get("doc")
        pid = next((doc[f] for f in ID_FIELDS if isinstance(doc, Mapping) and f in doc), None)
        if pid is None:
            yield source, {"id": None}
            continue
        filtered, raw = _completions(row.get("filtered_resps")), _completions(row.get("resps"))
        completions = raw if len(raw) > len(filtered) else filtered
        if not completions:
            yield source, {"id": pid}  # a sample with no completion: FORMAT, counted
        for i, completion in enumerate(completions):
            yield f"{source} response {i}", {"id": pid, "sample": i, "completion": completion}


def read(path: Path) -> tuple[list[Sample], list[str]]:
    return read_rows(_rows(path)), []
