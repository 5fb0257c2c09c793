"""A run as ``compare`` reads it: a report folder (``report.json``) or a result store (JSONL of
verdict records, with ``<store>.provenance.json`` beside it, written by ``evaluate``).

A store holds verdicts only: no code-similarity scores, and no problem groups unless given
(``groups``: problem id -> group, e.g. from the benchmark's records; ``qce compare`` builds it
when the benchmark's data is at hand). Every problem a store names counts, so give ``groups`` to
leave out samples naming unknown ids, as the report does.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..provenance import Provenance, ProvenanceError
from ..verdict import ERROR_BUCKETS, STATUSES, Verdict, error_bucket, with_error_class

#: the similarity columns read from a report (Table III of the PennySynth paper, and ROUGE-L)
SIMILARITY_KEYS = ("codebleu", "ngram_match", "weighted_ngram_match", "syntax_match",
                   "dataflow_match", "rouge_l_precision", "rouge_l_recall", "rouge_l_f")


class RunError(ValueError):
    """A run that cannot be read; the message names the file."""


@dataclass(frozen=True)
class ProblemCounts:
    """One problem of one run: samples ``n``, ``correct`` (AC, no judge error), the group and the
    samples per status."""

    problem_id: str
    group: str
    n: int
    correct: int
    statuses: dict[str, int] = field(default_factory=dict)


@dataclass
class Run:
    """What ``compare`` needs of one run."""

    label: str
    path: str
    kind: str  #: "report" or "store"
    benchmark: str
    config: str | None
    group_by: str
    problems: dict[str, ProblemCounts]
    errors: dict[str, int]  #: error class (or judge_limitation / judge_error / unclassified) -> failed samples
    errors_total: int
    similarity: dict[str, float | None] = field(default_factory=dict)
    provenance: Provenance | None = None
    provenance_problem: str = ""  #: why ``provenance`` is None
    #: problem -> mean fidelity of its samples that have one (QCoder; docs/metrics/fidelity.md)
    fidelity: dict[str, float] = field(default_factory=dict)


def default_label(path: str | Path) -> str:
    """The folder name (a report folder, or the folder of report.json / the store)."""
    p = Path(path)
    if p.is_file() and p.name == "report.json":
        p = p.parent
    elif p.is_file():
        return p.parent.name if p.stem in ("results", "store") else p.stem
    return p.resolve().name


def load_run(path: str | Path, label: str | None = None,
             groups: dict[str, str] | None = None) -> Run:
    """Read a report folder, a report.json or a result store."""
    p = Path(path)
    label = label or default_label(p)
    if p.is_dir():
        if (p / "report.json").is_file():
            return _from_report(p / "report.json", label)
        if (p / "results.jsonl").is_file():
            return _from_store(p / "results.jsonl", label, groups)
        raise RunError(f"{p}: neither report.json nor results.jsonl in this folder")
    if not p.is_file():
        raise RunError(f"{p}: no such report folder or result store")
    if p.suffix == ".json":
        return _from_report(p, label)
    return _from_store(p, label, groups)


def _read_provenance(data: Any, where: str) -> tuple[Provenance | None, str]:
    try:
        return Provenance.from_dict(data, where), ""
    except ProvenanceError as exc:
        return None, str(exc)


def _from_report(path: Path, label: str) -> Run:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        summary = data["summary"]
        problems = {}
        for row in data["per_problem"]:
            problems[str(row["problem_id"])] = ProblemCounts(
                str(row["problem_id"]), str(row.get("group", "all")), int(row["n"]),
                int(row["correct"]), {str(k): int(v) for k, v in (row.get("statuses") or {}).items()})
        errors = {str(k): int(v) for k, v in (summary.get("errors") or {}).items()}
        total = int(summary.get("errors_total", sum(errors.values())))
        cb, rl = summary.get("codebleu") or {}, summary.get("rouge_l") or {}
        similarity = {k: cb.get(k) for k in SIMILARITY_KEYS[:5]} | {
            "rouge_l_precision": rl.get("precision"), "rouge_l_recall": rl.get("recall"),
            "rouge_l_f": rl.get("f")}
        benchmark, config = str(data["benchmark"]), data.get("config")
        group_by = str(summary.get("group_by") or "group")
        fidelity = {str(r["problem_id"]): float(r["fidelity"]) for r in data["per_problem"]
                    if isinstance(r.get("fidelity"), (int, float))}
    except (OSError, UnicodeError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RunError(f"{path}: not a readable report.json ({type(exc).__name__}: {exc})") from None
    prov, why = _read_provenance(data.get("provenance"), str(path))
    return Run(label, str(path), "report", benchmark, config, group_by, problems, errors, total,
               {k: (float(v) if isinstance(v, (int, float)) else None) for k, v in similarity.items()},
               prov, why, fidelity)


def _from_store(path: Path, label: str, groups: dict[str, str] | None) -> Run:
    verdicts: dict[str, list[Verdict]] = {}
    benchmark = config = None
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeError) as exc:
        raise RunError(f"{path}: cannot read the result store ({exc})") from None
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            # the one error-class path, also for a store written elsewhere or by hand
            v = with_error_class(Verdict.from_dict(rec["verdict"]))
            pid = str(rec.get("problem_id", v.problem_id))
        except (ValueError, KeyError, TypeError) as exc:
            if no == len(lines):
                break  # a torn last line (a killed writer), as the store itself reads it
            raise RunError(f"{path}:{no}: not a verdict record ({type(exc).__name__})") from None
        benchmark = benchmark or rec.get("benchmark") or v.benchmark
        config = config if config is not None else rec.get("config")
        if groups is None or pid in groups:
            verdicts.setdefault(pid, []).append(v)
    if not verdicts:
        raise RunError(f"{path}: no verdict records")
    problems = {pid: ProblemCounts(
        pid, (groups or {}).get(pid, "all"), len(vs), sum(v.passed and not v.judge_error for v in vs),
        {st: c for st in STATUSES if (c := sum(v.status == st for v in vs))})
        for pid, vs in sorted(verdicts.items())}
    failed = [v for vs in verdicts.values() for v in vs if not v.passed or v.judge_error]
    counts = Counter(error_bucket(v.error_class, v.judge_error, v.judge_limitation) for v in failed)
    errors = {c: counts[c] for c in ERROR_BUCKETS if counts.get(c)}
    sidecar = path.with_name(path.name + ".provenance.json")
    data: Any = None
    if sidecar.is_file():
        try:
            data = json.loads(sidecar.read_text(encoding="utf-8"))
        except (OSError, UnicodeError, ValueError) as exc:
            raise RunError(f"{sidecar}: unreadable ({type(exc).__name__})") from None
    prov, why = _read_provenance(data, str(path))
    return Run(label, str(path), "store", str(benchmark), config,
               "group" if groups else "all", problems, errors, len(failed), {}, prov, why,
               _store_fidelity(verdicts))


def _store_fidelity(verdicts: dict[str, list[Verdict]]) -> dict[str, float]:
    """Problem -> the mean fidelity of its samples that have one, as the report counts it."""
    out = {}
    for pid, vs in verdicts.items():
        values = [float(f) for v in vs if not v.judge_error
                  and isinstance(f := v.details.get("mean_fidelity"), (int, float))]
        if values:
            out[pid] = sum(values) / len(values)
    return out
