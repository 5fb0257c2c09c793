"""inspect_ai logs (``.eval`` and ``.json``), read with inspect's own reader (imported here
only: ``pip install 'quantum-codegen-eval[inspect]'``).

The problem id is the sample's ``id``; each epoch is a sample (``epoch - 1``), its completion
``output.completion``. A sample inspect records as errored is *missing*, never judged.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..predictions import PredictionsError, Sample, read_rows


def _log(path: Path) -> Any:
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise PredictionsError(f"{path}: reading an inspect_ai log needs inspect-ai: pip install "
                               "'quantum-codegen-eval[inspect]'") from None
    try:
        log = read_eval_log(str(path))
    except Exception as exc:  # noqa: BLE001 - any failure of inspect's reader is this file's
        raise PredictionsError(f"{path}: not a readable inspect_ai log "
                               f"({type(exc).__name__}: {str(exc)[:200]})") from None
    if log.samples is None:
        raise PredictionsError(f"{path}: the inspect_ai log holds no samples "
                               f"(status {log.status})")
    return log


def _rows(log: Any, name: str, missing: list[str]) -> Iterable[tuple[str, Any]]:
    for s in log.samples:
        source = f"{name} sample {s.id!r} epoch {s.epoch}"
        if s.error is not None:
            missing.append(f"{source}: error: {str(s.error.message)[:200]}")
            continue
        yield source, {"id": s.id, "sample": s.epoch - 1,
                       "completion": s.output.completion if s.output is not None else None}


def read(path: Path) -> tuple[list[Sample], list[str]]:
    missing: list[str] = []
    samples = read_rows(_rows(_log(path), path.name, missing))
    return samples, missing
