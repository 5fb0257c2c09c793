"""OpenAI Batch API output files: one line per request.

``custom_id`` is ``<id>`` or ``<id>#<n>`` (sample ``n``); each choice's ``message.content`` is a
completion (a Responses API body: its ``output_text`` parts). A line with an ``error`` or a
``status_code`` other than 200 is *missing*: reported, never judged as a wrong answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..predictions import Sample, jsonl_rows, read_rows


def split_custom_id(custom_id: str) -> tuple[str, int | None]:
    """``"QPC001_A1#3"`` -> ``("QPC001_A1", 3)``; ``"QPC001_A1"`` -> ``("QPC001_A1", None)``."""
    pid, sep, n = custom_id.rpartition("#")
    if sep and pid and n.isdigit():
        return pid, int(n)
    return custom_id, None


def _failure(row: Mapping) -> str | None:
    error = row.get("error")
    response = row.get("response")
    status = response.get("status_code") if isinstance(response, Mapping) else None
    if error:
        detail = error.get("message") or error.get("code") if isinstance(error, Mapping) else error
        return f"error: {str(detail)[:200]}"
    if status != 200:
        body = response.get("body") if isinstance(response, Mapping) else None
        err = body.get("error") if isinstance(body, Mapping) else None
        detail = err.get("message") if isinstance(err, Mapping) else None
        return f"status {status}" + (f": {str(detail)[:200]}" if detail else "")
    return None


def _texts(body: Any) -> list[Any]:
    """The completions of a response body (chat: each choice; completions: ``text``; Responses
    API: its output text, one completion)."""
    if not isinstance(body, Mapping):
        return [None]
    choices = body.get("choices")
    if isinstance(choices, list) and choices:
        out = []
        for choice in choices:
            message = choice.get("message") if isinstance(choice, Mapping) else None
            out.append(message.get("content") if isinstance(message, Mapping)
                       else choice.get("text") if isinstance(choice, Mapping) else None)
        return out
    output = body.get("output")
    if isinstance(output, list):
        parts = [p.get("text") for item in output if isinstance(item, Mapping)
                 for p in item.get("content") or [] if isinstance(p, Mapping)
                 and p.get("type") == "output_text"]
        return ["".join(p for p in parts if isinstance(p, str))]
    return [None]


def _rows(path: Path, missing: list[str]) -> Iterable[tuple[str, Any]]:
    for source, row in jsonl_rows(path):
        if not isinstance(row, Mapping) or not isinstance(row.get("custom_id"), str):
            yield source, row if not isinstance(row, Mapping) else {"id": None}
            continue
        pid, n = split_custom_id(row["custom_id"])
        why = _failure(row)
        if why:
            missing.append(f"{source}: {row['custom_id'][:200]}: {why}")
            continue
        texts = _texts(row["response"].get("body"))
        for i, text in enumerate(texts):
            out = {"id": pid, "completion": text}
            if n is not None and len(texts) == 1:
                out["sample"] = n
            yield (f"{source} choice {i}" if len(texts) > 1 else source), out


def read(path: Path) -> tuple[list[Sample], list[str]]:
    missing: list[str] = []
    samples = read_rows(_rows(path, missing))  # read_rows consumes the rows: missing is full
    return samples, missing
