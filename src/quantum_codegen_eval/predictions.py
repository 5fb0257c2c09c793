"""Reading predictions: every accepted input shape becomes a list of :class:`Sample`.

Accepted shapes (see docs/evaluate.md):

* ``{problem_id: [completion, ...]}`` (or ``{problem_id: completion}``),
* a list of rows ``{"id": ..., "completion": ...}`` (optionally ``"sample"``: the sample index),
* a path to a JSONL file of such rows, or to a JSON file holding either of the above,
* a ``datasets.Dataset`` with ``id`` and ``completion`` columns.

Nothing is dropped silently. A prediction that cannot be used becomes a :class:`Sample` with
``format_error`` set (empty or non-string completion, duplicate sample index, unreadable line)
and is reported as a ``FORMAT`` verdict, so that every input prediction appears in the report
exactly once, under its own key. A repeated ``(id, sample)`` keeps its own key
(``id#sample+dupN``) and counts as a failed sample of that problem: repeating a sample can never
raise pass@k. A line or row with no usable id is ``unreadable`` (listed apart from unknown ids).

>>> [s.key for s in read_predictions({"p1": ["a", "b"], "p2": "c"})]
['p1#0', 'p1#1', 'p2#0']
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Sample:
    """One prediction: the ``index``-th completion for problem ``problem_id``."""

    problem_id: str
    index: int
    completion: str
    source: str = ""  # where it came from, for messages: "line 12", "row 3", "key 'p1'[2]"
    format_error: str | None = None  # set when the prediction cannot be judged
    duplicate: int = 0  # n > 0: the n-th repeat of (problem_id, index)
    unreadable: bool = False  # no usable id: problem_id is a placeholder naming the source

    @property
    def key(self) -> str:
        return f"{self.problem_id}#{self.index}" + (f"+dup{self.duplicate}" if self.duplicate else "")


class PredictionsError(ValueError):
    """The predictions as a whole cannot be read (not a file, not JSON, wrong top-level type)."""


MAX_ID_CHARS = 1000  # a longer "id" names no problem; it is reported, not echoed whole
MAX_SAMPLE_INDEX = 10**9


def _bad_text(text: str) -> str | None:
    """Why ``text`` cannot be stored or reported (a lone surrogate from a JSON escape), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"not valid Unicode (lone surrogate at character {exc.start})"
    return None


def _bad_id(pid: Any, source: str) -> str | None:
    if pid is None or not isinstance(pid, (str, int)) or isinstance(pid, bool):
        return f"{source}: missing or invalid 'id' field"
    if isinstance(pid, int):
        return None if abs(pid) < 10**MAX_ID_CHARS // 10 else f"{source}: 'id' is too long"
    if len(pid) > MAX_ID_CHARS:
        return f"{source}: 'id' is too long ({len(pid)} characters)"
    why = _bad_text(pid)
    return f"{source}: 'id' is {why}" if why else None


def _bad_index(value: Any) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SAMPLE_INDEX:
        return None
    shown = repr(value) if isinstance(value, (int, float, str)) and len(repr(value)) < 40 \
        else type(value).__name__
    return f"'sample' must be an integer from 0 to {MAX_SAMPLE_INDEX}, got {shown}"


def _row_samples(rows: Iterable[tuple[str, Any]]) -> list[Sample]:
    """Rows are (source, row) pairs; rows that are not dicts or lack fields become format errors."""
    out: list[Sample] = []
    seen: dict[tuple[str, int], list[str]] = {}
    counters: dict[str, int] = {}
    bad_rows: dict[str, int] = {}
    for source, row in rows:
        if isinstance(row, _Unreadable):
            out.append(Sample(f"<{source}>", 0, "", source, row.message, unreadable=True))
            continue
        if not isinstance(row, Mapping):
            out.append(Sample(f"<{source}>", 0, "", source,
                              f"{source}: expected an object with 'id' and 'completion', got {type(row).__name__}",
                              unreadable=True))
            continue
        pid = row.get("id", row.get("task_id", row.get("problem_id")))
        bad = _bad_id(pid, source)
        if bad:
            out.append(Sample(f"<{source}>", 0, "", source, bad, unreadable=True))
            continue
        pid = str(pid)
        bad_index = _bad_index(row["sample"]) if "sample" in row else None
        if bad_index:  # a failed sample of its problem, under a key no valid row can take
            bad_rows[pid] = bad_rows.get(pid, 0) + 1
            out.append(Sample(pid, -bad_rows[pid], "", source, f"{source}: {bad_index}"))
            continue
        index = row["sample"] if "sample" in row else counters.get(pid, 0)
        counters[pid] = max(counters.get(pid, 0), index + 1)
        completion = row.get("completion", row.get("code", row.get("generation")))
        if (pid, index) in seen:
            first = seen[(pid, index)]
            first.append(source)
            out.append(Sample(pid, index, completion if isinstance(completion, str) else "", source,
                              f"{source}: duplicate prediction {pid}#{index} (first at {first[0]}); "
                              "counted as a failed sample", duplicate=len(first) - 1))
            continue
        seen[(pid, index)] = [source]
        out.append(_checked(pid, index, completion, source))
    return out


def _checked(pid: str, index: int, completion: Any, source: str) -> Sample:
    if completion is None:
        return Sample(pid, index, "", source, f"{source}: no 'completion' field")
    if not isinstance(completion, str):
        return Sample(pid, index, "", source,
                      f"{source}: completion is {type(completion).__name__}, not a string")
    if not completion.strip():
        return Sample(pid, index, completion, source, f"{source}: empty completion")
    why = _bad_text(completion)
    if why:
        return Sample(pid, index, "", source, f"{source}: completion is {why}")
    return Sample(pid, index, completion, source)


@dataclass(frozen=True)
class _Unreadable:
    message: str


class _DuplicateKey(ValueError):
    pass


def _row_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSONL row object; a repeated key (which of two completions?) makes the line unreadable."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(f"duplicate key {key[:40]!r} in one object")
        out[key] = value
    return out


def _parse(text: str) -> Any:
    """``json.loads`` whose every failure is a ValueError with a one-line message."""
    try:
        return json.loads(text, object_pairs_hook=_row_object)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON ({exc.msg}, line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise ValueError("invalid JSON (nested too deeply)") from None
    except ValueError as exc:  # a duplicate key, an integer with thousands of digits
        raise ValueError(f"invalid JSON ({str(exc).split(';')[0]})") from None


def _jsonl_rows(path: Path) -> Iterable[tuple[str, Any]]:
    with path.open("rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            source = f"{path.name} line {lineno}"
            if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte order mark
                raw = raw[3:]
            if not raw.strip():
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield source, _Unreadable(f"{source}: not UTF-8 (byte {exc.start})")
                continue
            try:
                yield source, _parse(text)
            except ValueError as exc:
                yield source, _Unreadable(f"{source}: {exc}")


def _mapping_samples(mapping: Mapping[Any, Any], origin: str) -> list[Sample]:
    out: list[Sample] = []
    for n, (pid, value) in enumerate(mapping.items()):
        bad = _bad_id(pid, f"{origin}key {n}")
        if bad:
            out.append(Sample(f"<{origin}key {n}>", 0, "", f"{origin}key {n}", bad, unreadable=True))
            continue
        pid = str(pid)
        values = value if isinstance(value, (list, tuple)) else [value]
        for i, completion in enumerate(values):
            out.append(_checked(pid, i, completion, f"{origin}key {pid!r}[{i}]"))
    return out


def read_predictions(predictions: Any) -> list[Sample]:
    """Normalise any accepted predictions shape to samples (see the module docstring)."""
    if isinstance(predictions, (str, Path)):
        path = Path(predictions)
        if not path.is_file():
            raise PredictionsError(f"predictions file not found: {path}")
        if path.suffix == ".jsonl":
            return _row_samples(_jsonl_rows(path))
        try:
            data = _parse(path.read_bytes().decode("utf-8-sig"))
        except UnicodeDecodeError as exc:
            raise PredictionsError(f"{path}: not UTF-8 (byte {exc.start}); use JSONL to keep the "
                                   "other predictions when one is unreadable") from exc
        except ValueError as exc:
            raise PredictionsError(f"{path}: {exc}") from exc
        return read_predictions_data(data, origin=f"{path.name} ")
    return read_predictions_data(predictions)


def read_predictions_data(data: Any, origin: str = "") -> list[Sample]:
    if isinstance(data, Mapping):
        return _mapping_samples(data, origin)
    if hasattr(data, "column_names") and hasattr(data, "to_list"):  # datasets.Dataset
        return _row_samples((f"{origin}row {i}", row) for i, row in enumerate(data.to_list()))
    if isinstance(data, (list, tuple)):
        return _row_samples((f"{origin}row {i}", row) for i, row in enumerate(data))
    raise PredictionsError(
        "predictions must be {id: [completions]}, a list of {'id', 'completion'} rows, a JSON/JSONL "
        f"path or a datasets.Dataset; got {type(data).__name__}"
    )


def jsonl_rows(path: str | Path) -> Iterable[tuple[str, Any]]:
    """``(source, object)`` per non-blank line of a JSON-lines file; a line that cannot be read
    is an unreadable marker that :func:`read_rows` reports (the other lines are kept)."""
    return _jsonl_rows(Path(path))


def read_rows(rows: Iterable[tuple[str, Any]]) -> list[Sample]:
    """Samples of ``(source, row)`` pairs, rows ``{"id", "completion"[, "sample"]}`` (or the
    markers of :func:`jsonl_rows`): the readers of other tools' files (``inputs``) end here."""
    return _row_samples(rows)
