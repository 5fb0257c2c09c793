"""The retrieval settings of a run, read from its predictions file (for the run's provenance).

Two ways a predictions file says it was generated from RAG prompts, tried in order:

1. the sidecar ``<predictions>.rag.json`` beside it (what ``qce prompts --rag --out P`` writes
   as ``P.rag.json``: copy or link it beside the predictions under the predictions' name);
2. its JSONL rows carry the prompt line's ``rag`` object (a generation script that writes
   ``{**prompt_row, "completion": ...}`` keeps it): the settings of the first such row, and
   per problem whether its prompt fell back.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ._build import sidecar


def retrieval_facts(predictions: Any) -> dict[str, Any] | None:
    """``{"source", "settings", "prompts", "fallbacks"}`` or None (a plain run, or predictions
    given in memory)."""
    if not isinstance(predictions, (str, Path)):
        return None
    path = Path(predictions)
    side = sidecar(path)
    if side.is_file():
        try:
            data = json.loads(side.read_text(encoding="utf-8"))
            settings = dict(data["settings"])
            overall = data["consistency"]["groups"][-1]
            return {"source": side.name, "settings": settings, "prompts": int(overall["prompts"]),
                    "fallbacks": int(overall["fallbacks"])}
        except (OSError, UnicodeError, ValueError, KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"retrieval sidecar {side}: unreadable ({type(exc).__name__}: "
                             f"{exc})") from None
    if path.suffix != ".jsonl" or not path.is_file():
        return None
    settings, fallback = None, {}
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            try:
                row = json.loads(line)
            except (ValueError, RecursionError):
                continue  # the predictions reader reports unreadable lines
            rag = row.get("rag") if isinstance(row, dict) else None
            if isinstance(rag, dict) and isinstance(rag.get("settings"), dict):
                settings = settings or rag["settings"]
                fallback[str(row.get("id"))] = bool(rag.get("fallback"))
    if settings is None:
        return None
    return {"source": "rows", "settings": settings, "prompts": len(fallback),
            "fallbacks": sum(fallback.values())}
