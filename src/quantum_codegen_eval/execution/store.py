"""The result store: one JSON object per line, appended (flushed and fsync'd) as each result
arrives, keyed by sample id, so that a killed run resumes without redoing or duplicating one.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "results.jsonl")
>>> with ResultStore(path) as store:
...     _ = store.add({"id": "s1", "status": "ok"})
...     "s1" in store.done()
True
>>> ResultStore(path).get("s1")["status"]
'ok'
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from .types import Job, RunResult


class ResultStore:
    """Append-only JSONL keyed by ``key`` (default ``"id"``).

    A torn last line (the writer killed mid-write) is ignored on load and cut off before the next
    append; a record whose key is already stored is not written again (first one wins).
    """

    def __init__(self, path: str | os.PathLike[str], key: str = "id"):
        self.path = Path(path)
        self.key = key
        self._lock = threading.Lock()
        self._records: dict[str, dict[str, Any]] = {}
        self._fh = None
        self._load()

    def _load(self) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        good = 0
        pos = 0
        for raw in data.splitlines(keepends=True):
            pos += len(raw)
            if not raw.endswith(b"\n"):
                break  # torn tail
            line = raw.strip()
            if line:
                try:
                    rec = json.loads(line)
                except (ValueError, RecursionError) as e:
                    if pos == len(data):
                        break
                    raise ValueError(f"{self.path}: corrupt record at byte {good}: {e}") from e
                if isinstance(rec, dict) and self.key in rec:
                    self._records.setdefault(str(rec[self.key]), rec)
            good = pos
        if good != len(data):
            with open(self.path, "r+b") as f:
                f.truncate(good)
                f.flush()
                os.fsync(f.fileno())

    def add(self, record: dict[str, Any] | RunResult, key: str | None = None) -> bool:
        """Append ``record`` (a dict or a RunResult); return False if its key is already done."""
        rec = record.to_dict() if isinstance(record, RunResult) else dict(record)
        k = str(key if key is not None else rec.get(self.key, ""))
        if not k:
            raise ValueError(f"{self.path}: record without {self.key!r}: {str(rec)[:200]}")
        rec[self.key] = k
        line = json.dumps(rec, ensure_ascii=False, default=str) + "\n"
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (from a JSON escape): \uXXXX reads back same
            line = json.dumps(rec, default=str) + "\n"
        with self._lock:
            if k in self._records:
                return False
            if self._fh is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._fh = open(self.path, "a", encoding="utf-8")
            self._fh.write(line)
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self._records[k] = rec
        return True

    def done(self) -> set[str]:
        """The keys that have a result."""
        with self._lock:
            return set(self._records)

    def get(self, key: str) -> dict[str, Any] | None:
        return self._records.get(str(key))

    def result(self, key: str) -> RunResult | None:
        rec = self.get(key)
        return None if rec is None else RunResult.from_dict(rec)

    def records(self) -> Iterator[dict[str, Any]]:
        return iter(list(self._records.values()))

    def __contains__(self, key: object) -> bool:
        return str(key) in self._records

    def __len__(self) -> int:
        return len(self._records)

    def close(self) -> None:
        with self._lock:
            if self._fh is not None:
                self._fh.close()
                self._fh = None

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_resumable(sandbox: Any, jobs: Iterable[Job], store: ResultStore) -> Iterator[RunResult]:
    """Run the jobs that have no result in ``store`` yet, appending each result as it finishes
    (so a run killed at any point resumes where it stopped); yields the new results."""
    todo, seen = [], set()
    done = store.done()
    for job in jobs:
        if not job.id:
            raise ValueError(f"{store.path}: a resumable job needs an id: {job.source[:60]!r}")
        if job.id in seen:
            raise ValueError(f"{store.path}: duplicate job id {job.id!r}")
        seen.add(job.id)
        if job.id not in done:
            todo.append(job)
    for result in sandbox.map(todo):
        store.add(result)
        yield result
