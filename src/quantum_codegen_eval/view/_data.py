"""What the pages show, as plain JSON-ready data: the summary of every run, the comparison,
the problems table and each problem's samples (one chunk per problem, loaded when opened)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..compare import Comparison, NotComparable, Run, compare, load_run
from ..verdict import ERROR_BUCKETS, STATUSES

#: characters of a judge's message or a test's expected / got value a page shows
MAX_MESSAGE_CHARS = 4000


class ViewError(ValueError):
    """Runs the viewer cannot show; the one-line message names the file or the label."""


@dataclass
class ViewRun:
    """One run: what ``compare`` reads of it and the report itself (its per-sample rows)."""

    run: Run
    report: dict[str, Any]

    @property
    def label(self) -> str:
        return self.run.label


def load_view_runs(runs: Sequence[str | Path] | Mapping[str, str | Path]) -> list[ViewRun]:
    """Read report folders (or report.json files); labels default to the folder names."""
    given = list(runs.items()) if isinstance(runs, Mapping) else [(None, r) for r in runs]
    items = [pair for label, path in given for pair in _expand(label, Path(path))]
    if not items:
        raise ViewError("give at least one run (a report folder)")
    out = []
    for label, path in items:
        run = load_run(path, label)
        if run.kind != "report":
            raise ViewError(f"{path}: a result store holds no code; qce view reads report "
                            "folders (qce evaluate --out DIR writes one)")
        try:
            report = json.loads(Path(run.path).read_text(encoding="utf-8"))
            if not isinstance(report.get("per_sample"), list):
                raise TypeError("per_sample is not a list")
        except (OSError, UnicodeError, ValueError, TypeError, AttributeError) as exc:
            raise ViewError(f"{run.path}: not a readable report.json ({exc})") from None
        out.append(ViewRun(run, report))
    labels = [r.label for r in out]
    if dup := sorted({x for x in labels if labels.count(x) > 1}):
        raise ViewError(f"two runs have the label {dup[0]!r}: name them (--label NAME=PATH)")
    return out


def _expand(label: str | None, path: Path) -> list[tuple[str | None, Path]]:
    """A folder of report folders (``qce demo``'s: one per config) is its report folders,
    labelled ``<label or folder>/<sub-folder>``."""
    if not path.is_dir() or (path / "report.json").exists() or (path / "results.jsonl").exists():
        return [(label, path)]
    subs = sorted(p for p in path.iterdir() if (p / "report.json").is_file())
    if not subs:
        return [(label, path)]
    return [(f"{label or path.resolve().name}/{sub.name}", sub) for sub in subs]


def _text(value: Any, limit: int = MAX_MESSAGE_CHARS) -> str:
    """A value as bounded text (a judge's message, an expected or produced value)."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, default=str)[:limit + 1]
    return text if len(text) <= limit else text[:limit] + " …"


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


# ------------------------------------------------------------------ the summary

def _passk(summary: dict[str, Any], table: str = "pass@k", ci_name: str = "pass@k_ci",
           key: str | None = None) -> dict[str, Any]:
    """group -> {"problems": n, "pass@k": [value, low, high] or None} from a report's summary."""
    rows = summary.get(table) or {}
    cis = summary.get(ci_name) or {}
    if key is not None:
        rows, cis = rows.get(key) or {}, cis.get(key) or {}
    out: dict[str, Any] = {}
    for group, entry in rows.items():
        if not isinstance(entry, dict):
            continue
        cell: dict[str, Any] = {"problems": entry.get("problems")}
        for name, value in entry.items():
            if name.startswith("pass@"):
                ci = (cis.get(group) or {}).get(name) or [None, None]
                cell[name] = None if value is None else [_num(value), _num(ci[0]), _num(ci[1])]
        out[str(group)] = cell
    return out


def _fidelity(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Mean fidelity over the samples whose verdict reports one (QCoder's judge does)."""
    values = [f for r in rows if (f := _num(((r.get("verdict") or {}).get("details") or {})
                                            .get("fidelity"))) is not None]
    if not values:
        return None
    return {"mean": sum(values) / len(values), "samples": len(values)}


def _run_summary(vr: ViewRun) -> dict[str, Any]:
    data, run = vr.report, vr.run
    s = data.get("summary") or {}
    prov = run.provenance
    refinement = data.get("refinement") or None
    return {
        "label": run.label, "path": run.path, "benchmark": run.benchmark, "config": run.config,
        "group_by": run.group_by, "predictions": s.get("predictions"),
        "problems": len(run.problems), "seconds": s.get("seconds"),
        "passk": _passk(s),
        "passk_by": {name: _passk(s, "pass@k_by", "pass@k_by_ci", name)
                     for name in (s.get("pass@k_by") or {})},
        "ci_method": s.get("pass@k_ci_method"),
        "statuses": {k: v for k, v in (s.get("statuses") or {}).items()},
        "errors": run.errors, "errors_total": run.errors_total,
        "similarity": run.similarity, "fidelity": _fidelity(data["per_sample"]),
        "hallucination": {k: v for k, v in (s.get("hallucination") or {}).items()
                          if isinstance(v, (int, float, str)) or v is None},
        "unknown_ids": len(s.get("unknown_ids") or []),
        "unreadable": len(s.get("unreadable") or []),
        "signature": prov.signature.render() if prov else None,
        "provenance": prov.to_dict() if prov else None,
        "provenance_problem": run.provenance_problem,
        "signatures": data.get("signatures") or {},
        "refinement": None if not refinement else {
            k: refinement.get(k) for k in ("rounds", "success_by_round", "pass@k_by_round",
                                           "solved_by_round", "chains", "round_numbering")},
    }


def _comparison(runs: list[ViewRun], k: tuple[int, ...], n_boot: int, seed: int
                ) -> dict[str, Any] | None:
    if len(runs) < 2:
        return None
    first = runs[0].run
    if any(r.run.benchmark != first.benchmark or r.run.config != first.config
           or set(r.run.problems) != set(first.problems) for r in runs[1:]):
        try:  # the reason, in compare's words
            compare([r.run for r in runs], k=k, n_boot=1, seed=seed)
        except NotComparable as exc:
            return {"skipped": f"No paired comparison: {exc}.", "caveats": [], "tables": []}
    # the same problems of one benchmark: compared, with a caveat where the judges differ
    result: Comparison = compare([r.run for r in runs], k=k, allow_mismatch=True, n_boot=n_boot,
                                 seed=seed)
    return {"skipped": "", "caveats": result.caveats,
            "tables": [{"name": t.name, "title": t.title, "header": t.header, "rows": t.cells(),
                        "notes": [n for n in t.notes if n not in result.caveats]}
                       for t in result.tables.values()]}


def _ks(runs: list[ViewRun]) -> tuple[int, ...]:
    ks = set()
    for r in runs:
        for entry in ((r.report.get("summary") or {}).get("pass@k") or {}).values():
            ks |= {int(name[5:]) for name in entry if name.startswith("pass@") and name[5:].isdigit()}
    return tuple(sorted(ks)) or (1,)


# ------------------------------------------------------------------ problems and samples

def _problem_ids(runs: list[ViewRun]) -> list[str]:
    """Every problem id of every run: the problems, then ids naming no known problem."""
    known = {pid for r in runs for pid in r.run.problems}
    other = {str(row.get("problem_id")) for r in runs for row in r.report["per_sample"]} - known
    return sorted(known) + sorted(other)


def _first_failing(verdict: dict[str, Any]) -> dict[str, Any] | None:
    details = verdict.get("details") or {}
    for t in verdict.get("tests") or []:
        if isinstance(t, dict) and not t.get("passed"):
            return {"name": _text(t.get("name"), 300), "status": _text(t.get("status"), 20),
                    "message": _text(t.get("message")),
                    "expected": _text(t.get("expected")), "got": _text(t.get("got"))}
    if details.get("first_failing"):
        return {"name": _text(details["first_failing"], 300), "status": "", "message": "",
                "expected": "", "got": ""}
    return None


def _sample(row: dict[str, Any]) -> dict[str, Any]:
    verdict = row.get("verdict") or {}
    details = verdict.get("details") or {}
    rounds = [{"round": h.get("round"), "status": _text(h.get("status"), 20),
               "error_class": h.get("error_class"), "message": _text(h.get("message")),
               "feedback": _text(h.get("feedback")), "code": h.get("completion")}
              for h in row.get("round_history") or [] if isinstance(h, dict)]
    return {
        "key": _text(row.get("key"), 1100), "sample": row.get("sample"),
        "status": _text(row.get("status"), 20), "error_class": row.get("error_class"),
        "judge_error": bool(row.get("judge_error")),
        "judge_limitation": _text(row.get("judge_limitation") or "", 40),
        "tests": [row.get("tests_passed"), row.get("tests_total")],
        "message": _text(row.get("message")), "failing": _first_failing(verdict),
        "fidelity": _num(details.get("fidelity")),
        "codebleu": _num(row.get("codebleu")), "rouge_l_f": _num(row.get("rouge_l_f")),
        "hallucinated": row.get("hallucinated") if isinstance(row.get("hallucinated"), list) else None,
        "code": row.get("completion") if isinstance(row.get("completion"), str) else None,
        "code_truncated": bool(row.get("completion_truncated")),
        "known_problem": row.get("known_problem", True) is not False,
        "first_ac_round": row.get("first_ac_round"), "rounds": rounds,
    }


def _cell(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One problem of one run in the problems table."""
    if not rows:
        return None
    statuses: dict[str, int] = {}
    for row in rows:
        st = str(row.get("status"))
        statuses[st] = statuses.get(st, 0) + 1
    correct = sum(row.get("status") == "AC" and not row.get("judge_error") for row in rows)
    order = {st: i for i, st in enumerate(STATUSES)}
    return {"n": len(rows), "correct": correct,
            "statuses": dict(sorted(statuses.items(), key=lambda kv: (order.get(kv[0], 99), kv[0])))}


def problems_and_chunks(runs: list[ViewRun]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The problems table (one row per problem, one cell per run) and, in the same order, each
    problem's samples per run."""
    by_run: list[dict[str, list[dict[str, Any]]]] = []
    for r in runs:
        rows: dict[str, list[dict[str, Any]]] = {}
        for row in r.report["per_sample"]:
            rows.setdefault(str(row.get("problem_id")), []).append(row)
        for rs in rows.values():
            rs.sort(key=lambda x: (x.get("sample") if isinstance(x.get("sample"), int) else 0,
                                   str(x.get("key"))))
        by_run.append(rows)
    table, chunks = [], []
    for pid in _problem_ids(runs):
        groups = {r.run.problems[pid].group for r in runs if pid in r.run.problems}
        cells = [_cell(rows.get(pid, [])) for r, rows in zip(runs, by_run, strict=True)]
        rates = {None if c is None else c["correct"] / c["n"] for c in cells}
        statuses = {None if c is None else tuple(c["statuses"]) for c in cells}
        table.append({"id": pid, "group": ", ".join(sorted(groups)) or "(unknown id)",
                      "benchmark": ", ".join(sorted({r.run.benchmark for r in runs})),
                      "cells": cells, "differs": len(rates) > 1 or len(statuses) > 1})
        chunks.append({"id": pid, "runs": [[_sample(row) for row in rows.get(pid, [])]
                                           for rows in by_run]})
    return table, chunks


def site_data(runs: list[ViewRun], *, n_boot: int, seed: int) -> dict[str, Any]:
    """The summary payload (everything but the samples)."""
    return {"runs": [_run_summary(r) for r in runs],
            "comparison": _comparison(runs, _ks(runs), n_boot, seed),
            "statuses": list(STATUSES), "error_classes": list(ERROR_BUCKETS),
            "labels": [r.label for r in runs]}
