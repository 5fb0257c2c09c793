"""Retrieval-corpus contamination: which corpus entries hold a benchmark problem's own code.

For each problem, its *texts* (the benchmark's reference: QHack's template or reference
solution, QCoder's reference solution, HumanEval's prompt plus canonical solution; and the
template where the record has one) are compared with every corpus entry's code in two steps:

1. **identical**: both normalise to the same text under the PennySynth builder's dedup rule
   (:func:`quantum_codegen_eval.loaders.pennysynth.normalise`: local names renamed, formatting,
   comments, docstrings, string and float values erased);
2. **near**: token n-gram overlap of the normalised code, with every local name written as one
   placeholder (so renaming and reordering definitions cannot hide a copy;
   :func:`quantum_codegen_eval.neardup.ngrams`, the representation ``synthesize``'s
   near-duplicate check uses too). Only a problem's
   *distinctive* n-grams count (those in no other problem of the benchmark): the harness code
   all templates share is not evidence. The score is the share of the problem's distinctive
   n-grams found in the entry; an entry is flagged at ``score >= threshold`` when it also
   holds at least ``MIN_NGRAMS`` of them.

The defaults (``n = 10`` tokens, ``threshold = 0.5``) and the measurements behind them are in
docs/contamination.md.

>>> report = contamination("corpus.jsonl", "qhack", "all")  # doctest: +SKIP
>>> report.flagged  # doctest: +SKIP
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .benchmarks.base import Benchmark, get
from .neardup import ngrams, normalised

DEFAULT_N = 10
DEFAULT_THRESHOLD = 0.5
#: an entry is flagged only if it holds at least this many of a problem's distinctive n-grams
#: (generic PennyLane lines such as a device and a QNode decorator span about 7 of them); a problem
#: text with fewer distinctive n-grams is compared for identity only
MIN_NGRAMS = 15
CODE_COLUMNS = ("code", "content", "completion", "solution", "source", "text")
ID_COLUMNS = ("id", "task_id", "name", "path")



class CorpusError(ValueError):
    """The corpus cannot be read (the message names the file and why)."""


@dataclass(frozen=True)
class Match:
    """One corpus entry flagged for one problem."""

    problem_id: str
    entry: str  #: the entry's id (its id column, else ``row <n>``)
    kind: str  #: "identical" or "near"
    score: float  #: share of the problem's distinctive n-grams in the entry (1.0: identical)
    text: str  #: which problem text it matched: "reference", "template"

    def to_dict(self) -> dict[str, Any]:
        return {"problem_id": self.problem_id, "entry": self.entry, "kind": self.kind,
                "score": round(self.score, 4), "text": self.text}


@dataclass
class ContaminationReport:
    """Per problem, the flagged corpus entries; plus what was compared."""

    benchmark: str
    config: str | None
    corpus: str
    code_column: str
    entries: int
    problems: int
    n: int
    threshold: float
    matches: list[Match] = field(default_factory=list)
    #: problems whose texts had too few distinctive n-grams for the overlap step
    identity_only: list[str] = field(default_factory=list)

    @property
    def flagged(self) -> dict[str, list[Match]]:
        out: dict[str, list[Match]] = {}
        for m in self.matches:
            out.setdefault(m.problem_id, []).append(m)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"benchmark": self.benchmark, "config": self.config, "corpus": self.corpus,
                "code_column": self.code_column, "entries": self.entries,
                "problems": self.problems, "n": self.n, "threshold": self.threshold,
                "problems_flagged": len(self.flagged),
                "flagged": {pid: [m.to_dict() for m in ms] for pid, ms in self.flagged.items()},
                "identity_only": self.identity_only}

    def to_markdown(self) -> str:
        from .report import inline

        out = [f"# Contamination: {inline(self.benchmark)}"
               + (f" ({inline(self.config)})" if self.config else ""), "",
               f"{self.entries} entries of `{inline(self.corpus, 300, code=True)}` (column "
               f"`{inline(self.code_column, code=True)}`) against {self.problems} problems; "
               f"{self.n}-gram overlap threshold {self.threshold}.", "",
               f"{len(self.flagged)} problems flagged.", ""]
        if self.matches:
            out += ["| problem | entry | kind | score | matched |", "|---|---|---|---|---|"]
            out += [f"| {inline(m.problem_id)} | {inline(m.entry)} | {m.kind} | {m.score:.3f} | "
                    f"{m.text} |" for m in self.matches]
        if self.identity_only:
            out += ["", f"{len(self.identity_only)} problems have too little distinctive code "
                    "for the overlap step (identity only): " + ", ".join(
                        inline(p) for p in self.identity_only)]
        return "\n".join(out) + "\n"


# ---------------------------------------------------------------- reading the corpus

def read_corpus(path: str | Path, code_column: str | None = None) -> tuple[list[tuple[str, str]], str]:
    """``[(entry id, code)]`` and the code column used, from a JSONL / JSON / Parquet file or a
    dataset folder. Rows without a string in the code column are skipped."""
    path = Path(path)
    rows = list(_rows(path))
    if not rows:
        raise CorpusError(f"corpus {path}: no rows")
    columns = list(rows[0])
    column = code_column or next((c for c in CODE_COLUMNS if c in columns), None)
    if column is None or column not in columns:
        raise CorpusError(f"corpus {path}: no code column "
                          + (f"{code_column!r}" if code_column else f"(looked for {', '.join(CODE_COLUMNS)})")
                          + f"; its columns: {', '.join(map(str, columns))}; pass --code-column")
    id_col = next((c for c in ID_COLUMNS if c in columns), None)
    out = []
    for i, row in enumerate(rows):
        code = row.get(column)
        if isinstance(code, str) and code.strip():
            name = row.get(id_col) if id_col else None
            out.append((str(name) if name not in (None, "") else f"row {i}", code))
    return out, column


def _rows(path: Path) -> Iterator[dict[str, Any]]:
    if not path.exists():
        raise CorpusError(f"corpus {path}: no such file or folder")
    if path.is_dir():
        yield from _dataset_rows(path)
        return
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        try:
            yield from pq.read_table(path).to_pylist()
        except Exception as exc:  # noqa: BLE001 - any unreadable file is one line
            raise CorpusError(f"corpus {path}: not a readable Parquet file ({exc})") from None
        return
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CorpusError(f"corpus {path}: cannot read ({exc})") from None
    if suffix == ".json":
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise CorpusError(f"corpus {path}: not JSON ({exc})") from None
        data = data.get("data", data) if isinstance(data, dict) else data
        if not isinstance(data, list):
            raise CorpusError(f"corpus {path}: JSON must hold a list of rows")
        yield from (r for r in data if isinstance(r, dict))
        return
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                row = json.loads(line)
            except ValueError:
                raise CorpusError(f"corpus {path}: line {n} is not JSON") from None
            if isinstance(row, dict):
                yield row


def _dataset_rows(folder: Path) -> Iterator[dict[str, Any]]:
    import datasets

    from .datasets_cache import hf_cache_for

    try:
        data = datasets.load_dataset(str(folder), cache_dir=hf_cache_for(folder))
    except Exception as exc:  # noqa: BLE001 - any unreadable folder is one line
        raise CorpusError(f"corpus {folder}: not a readable dataset folder "
                          f"({type(exc).__name__}: {str(exc)[:200]})") from None
    for split in data.values():
        yield from split


# ---------------------------------------------------------------- comparing

def problem_texts(bench: Benchmark, record: Any) -> dict[str, str]:
    """The code a corpus entry must not hold: the benchmark's reference, and the record's
    template when it has one (kind -> code)."""
    out: dict[str, str] = {}
    ref = bench.reference(record)
    if ref:
        out["reference"] = ref
    template = getattr(record, "template", None)
    if isinstance(template, str) and template.strip() and template != ref:
        out["template"] = template
    return out


def contamination(corpus: str | Path, benchmark: str | Benchmark, config: str | None = None, *,
                  code_column: str | None = None, threshold: float = DEFAULT_THRESHOLD,
                  n: int = DEFAULT_N, data_dir: str | Path | None = None,
                  problems: dict[str, Any] | None = None,
                  entries: list[tuple[str, str]] | None = None) -> ContaminationReport:
    """Per problem of ``benchmark``, the entries of ``corpus`` that hold its code (see the
    module docstring for the two steps and the score). ``entries``: the corpus already read,
    as ``(id, code)`` pairs (``corpus`` then only names it)."""
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold must be in (0, 1], got {threshold}")
    if n < 1:
        raise ValueError(f"n must be a positive integer, got {n}")
    bench = benchmark if isinstance(benchmark, Benchmark) else get(benchmark)
    if config is not None or problems is None:
        config = bench.check_config(config)
    if problems is None:
        problems = bench.loader.problems(config, data_dir=data_dir)
    if entries is None:
        entries, column = read_corpus(corpus, code_column)
    else:
        column = code_column or "code"

    texts = {(pid, kind): normalised(code) for pid, rec in problems.items()
             for kind, code in problem_texts(bench, rec).items()}
    grams = {key: ngrams(norm, n) for key, norm in texts.items()}
    owners: dict[tuple[str, ...], set[str]] = {}
    for (pid, _), gs in grams.items():
        for g in gs:
            owners.setdefault(g, set()).add(pid)
    distinctive = {key: {g for g in gs if len(owners[g]) == 1} for key, gs in grams.items()}
    index: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    for key, gs in distinctive.items():
        if len(gs) >= MIN_NGRAMS:
            for g in gs:
                index.setdefault(g, []).append(key)
    identical: dict[str, list[tuple[str, str]]] = {}
    for key, norm in texts.items():
        identical.setdefault(norm, []).append(key)

    best: dict[tuple[str, str], tuple[str, float, str]] = {}  # (pid, entry) -> kind, score, text
    for entry_id, code in entries:
        norm = normalised(code)
        hits: dict[tuple[str, str], int] = {}
        for g in ngrams(norm, n):
            for key in index.get(g, ()):
                hits[key] = hits.get(key, 0) + 1
        found = [(key, "identical", 1.0) for key in identical.get(norm, ())]
        found += [(key, "near", c / len(distinctive[key])) for key, c in hits.items()
                  if c >= MIN_NGRAMS and c / len(distinctive[key]) >= threshold]
        for (pid, kind_of_text), kind, s in found:
            prior = best.get((pid, entry_id))
            if prior is None or (s, kind == "identical") > (prior[1], prior[0] == "identical"):
                best[(pid, entry_id)] = (kind, s, kind_of_text)
    matches = sorted((Match(pid, entry, kind, s, text) for (pid, entry), (kind, s, text)
                      in best.items()), key=lambda m: (m.problem_id, -m.score, m.entry))
    short = sorted({pid for (pid, _), gs in distinctive.items() if len(gs) < MIN_NGRAMS}
                   - {pid for (pid, _), gs in distinctive.items() if len(gs) >= MIN_NGRAMS})
    return ContaminationReport(bench.name, config, str(corpus), column, len(entries),
                               len(problems), n, threshold, matches, short)
