"""The report: per-sample, per-problem and summary levels, as JSON, Markdown tables and plots.

The Markdown lays the tables out as the source papers print them: pass@k per year (QHack) or
contest (QCoder), a code-similarity table (CodeBLEU and its components, ROUGE-L), and an error
distribution table (error classes of failed samples, verdict statuses).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .codeblocks import extract_code
from .predictions import Sample
from .verdict import ERROR_CLASSES, STATUSES, Verdict

#: the reference language of each benchmark's code, for CodeBLEU's quantum variant
LANG = {"qhack": "pennylane", "pennysynth": "pennylane", "qcoder": "qiskit", "qiskit_humaneval": "qiskit"}


@dataclass
class Report:
    """What :func:`~quantum_codegen_eval.evaluate` returns."""

    benchmark: str
    config: str | None
    summary: dict[str, Any]
    per_problem: list[dict[str, Any]]
    per_sample: list[dict[str, Any]]
    signatures: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"benchmark": self.benchmark, "config": self.config, "summary": self.summary,
                "per_problem": self.per_problem, "per_sample": self.per_sample,
                "signatures": self.signatures}

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), default=str, **kwargs)

    def to_markdown(self) -> str:
        return render_markdown(self)

    def save(self, out: str | Path) -> dict[str, Path]:
        """Write report.json, report.md and the plots into ``out``; returns the paths."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        paths = {"json": out / "report.json", "markdown": out / "report.md"}
        paths["json"].write_text(self.to_json(indent=2))
        paths["markdown"].write_text(self.to_markdown())
        paths.update(plot_report(self, out))
        return paths


def _group_of(record: Any) -> str:
    for attr in ("year", "contest", "difficulty_scale", "difficulty"):
        value = getattr(record, attr, None) if not isinstance(record, dict) else record.get(attr)
        if value not in (None, ""):
            return str(value)
    return "all"


def _pass_at_k_table(per_problem: list[dict[str, Any]], ks: tuple[int, ...]) -> dict[str, Any]:
    from .metrics.passk import pass_at_k

    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in per_problem:
        groups[row["group"]].append(row)
    table: dict[str, Any] = {}
    for name, rows in [("all", per_problem)] + sorted(groups.items()):
        if name == "all" or len(groups) > 1:
            entry: dict[str, Any] = {"problems": len(rows)}
            ns = [r["n"] for r in rows]
            cs = [r["correct"] for r in rows]
            for k in ks:
                if rows and min(ns) >= k:
                    entry[f"pass@{k}"] = float(pass_at_k(ns, cs, k))
                else:
                    entry[f"pass@{k}"] = None  # some problem has fewer than k samples
            entry["partial_credit"] = (sum(r["partial_credit"] for r in rows) / len(rows)) if rows else None
            table[name] = entry
    return table


def build_report(*, benchmark: str, config: str | None, samples: list[Sample],
                 verdicts: dict[str, Verdict], problems: dict[str, Any], module: Any,
                 k: tuple[int, ...], metrics: tuple[str, ...], seconds: float) -> Report:
    per_sample: list[dict[str, Any]] = []
    by_problem: dict[str, list[tuple[Sample, Verdict]]] = defaultdict(list)
    for s in samples:
        v = verdicts[s.key]
        per_sample.append({"key": s.key, "problem_id": s.problem_id, "sample": s.index,
                           "status": v.status, "error_class": v.error_class,
                           "tests_passed": v.tests_passed, "tests_total": v.tests_total,
                           "partial_credit": v.partial_credit, "message": v.message,
                           "known_problem": s.problem_id in problems, "verdict": v.to_dict()})
        if s.problem_id in problems:
            by_problem[s.problem_id].append((s, v))

    per_problem = []
    for pid, pairs in by_problem.items():
        per_problem.append({
            "problem_id": pid, "group": _group_of(problems[pid]), "n": len(pairs),
            "correct": sum(v.passed for _, v in pairs),
            "partial_credit": sum(v.partial_credit for _, v in pairs) / len(pairs),
            "statuses": dict(Counter(v.status for _, v in pairs)),
        })
    per_problem.sort(key=lambda r: r["problem_id"])

    unknown = [r["key"] for r in per_sample if not r["known_problem"]]
    summary: dict[str, Any] = {
        "benchmark": benchmark, "config": config, "predictions": len(samples),
        "problems_with_predictions": len(per_problem),
        "problems_without_predictions": sorted(set(problems) - set(by_problem)),
        "unknown_ids": unknown, "seconds": round(seconds, 2),
        "statuses": {s: c for s in STATUSES if (c := sum(r["status"] == s for r in per_sample))},
    }
    signatures: dict[str, str] = {}
    if "pass@k" in metrics or "partial_credit" in metrics:
        summary["pass@k"] = _pass_at_k_table(per_problem, k)
    if "errors" in metrics:
        failed = [r for r in per_sample if r["status"] != "AC"]
        counts = Counter(r["error_class"] or "unclassified" for r in failed)
        summary["errors"] = {c: counts.get(c, 0) for c in (*ERROR_CLASSES, "unclassified") if counts.get(c)}
        summary["errors_total"] = len(failed)

    codes = {s.key: _candidate_code(module, problems.get(s.problem_id), s) for s in samples}
    lang = module.language(config) if hasattr(module, "language") else LANG.get(benchmark, "python")
    pairs = [(s.key, module.reference_code(problems[s.problem_id]), codes[s.key]) for s in samples
             if s.problem_id in problems and codes[s.key]]
    pairs = [(key, ref, code) for key, ref, code in pairs if ref]
    if pairs and "codebleu" in metrics:
        from .metrics.codebleu import codebleu

        cb = codebleu([r for _, r, _ in pairs], [c for _, _, c in pairs], variant="quantum", lang=lang)
        summary["codebleu"] = {key: cb[key] for key in
                               ("codebleu", "ngram_match", "weighted_ngram_match", "syntax_match",
                                "dataflow_match")}
        summary["codebleu"]["pairs"] = len(pairs)
        signatures["codebleu"] = cb["signature"]
        _attach(per_sample, [key for key, _, _ in pairs], "codebleu",
                [p.get("codebleu") for p in cb["per_sample"]])
    if pairs and "rouge_l" in metrics:
        from .metrics.rouge import rouge_l

        rl = rouge_l([r for _, r, _ in pairs], [c for _, _, c in pairs], tokenizer="code")
        summary["rouge_l"] = {key: rl[key] for key in ("precision", "recall", "f")}
        signatures["rouge_l"] = rl["signature"]
        _attach(per_sample, [key for key, _, _ in pairs], "rouge_l_f", [p.get("f") for p in rl["per_sample"]])
    if lang == "pennylane" and "hallucination" in metrics:
        summary["hallucination"] = _hallucination_summary(samples, codes, problems, per_sample)

    return Report(benchmark=benchmark, config=config, summary=summary, per_problem=per_problem,
                  per_sample=per_sample, signatures=signatures)


def _candidate_code(module: Any, record: Any, sample: Sample) -> str | None:
    """The code a metric sees: the benchmark's own assembly where it has one (e.g. prompt +
    function body for HumanEval-style tasks), else the code extracted from the completion."""
    if sample.format_error:
        return None
    if record is not None and hasattr(module, "candidate_code"):
        return module.candidate_code(record, sample.completion)
    return extract_code(sample.completion, plain_ok=True)


def _attach(per_sample: list[dict[str, Any]], keys: list[str], name: str, values: list[Any]) -> None:
    index = {row["key"]: row for row in per_sample}
    for key, value in zip(keys, values, strict=True):
        index[key][name] = value


def _hallucination_summary(samples, codes, problems, per_sample) -> dict[str, Any]:
    from .metrics.hallucination import CodeParseError, find_hallucinations

    index = {row["key"]: row for row in per_sample}
    checked = with_any = with_stale = unparsable = 0
    names: Counter[str] = Counter()
    for s in samples:
        code = codes[s.key]
        if not code or s.problem_id not in problems:
            continue
        version = getattr(problems[s.problem_id], "pennylane_version", None)
        try:
            findings = find_hallucinations(code, pennylane_version=version)
        except CodeParseError:
            unparsable += 1
            index[s.key]["hallucinated"] = None
            continue
        bad = [f.name for f in findings if f.status == "hallucinated"]
        stale = [f.name for f in findings if f.status in ("removed", "too_new")]
        checked += 1
        with_any += bool(bad)
        with_stale += bool(stale)
        names.update(bad)
        index[s.key]["hallucinated"] = bad
        index[s.key]["wrong_version_api"] = stale
    return {"rate": with_any / checked if checked else None, "samples_checked": checked,
            "samples_with_hallucination": with_any, "samples_with_wrong_version_api": with_stale,
            "unparsable": unparsable, "most_common": names.most_common(10)}


# ---------------------------------------------------------------- rendering


def _fmt(value: Any, pct: bool = True) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{100 * value:.1f}" if pct else f"{value:.4f}"
    return str(value)


def _table(header: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def render_markdown(report: Report) -> str:
    s = report.summary
    title = report.benchmark + (f" ({report.config})" if report.config else "")
    out = [f"# Evaluation report: {title}", "",
           f"{s['predictions']} predictions on {s['problems_with_predictions']} problems "
           f"in {s['seconds']} s."]
    if s["problems_without_predictions"]:
        out.append(f"{len(s['problems_without_predictions'])} problems have no prediction "
                   "(not counted in pass@k).")
    if s["unknown_ids"]:
        out.append(f"{len(s['unknown_ids'])} predictions name unknown problem ids (FORMAT, not "
                   f"counted in pass@k): {', '.join(s['unknown_ids'][:10])}")
    if "pass@k" in s:
        table = s["pass@k"]
        ks = [key for key in next(iter(table.values())) if key.startswith("pass@")]
        rows = [[name, entry["problems"], *(_fmt(entry[k]) for k in ks), _fmt(entry["partial_credit"])]
                for name, entry in table.items()]
        out += ["", "## pass@k (%)", "", _table(["group", "problems", *ks, "partial credit"], rows)]
    if "codebleu" in s or "rouge_l" in s:
        cb, rl = s.get("codebleu", {}), s.get("rouge_l", {})
        out += ["", "## Code similarity to the reference", "",
                _table(["CodeBLEU", "n-gram", "weighted n-gram", "syntax", "dataflow",
                        "ROUGE-L P", "ROUGE-L R", "ROUGE-L F"],
                       [[_fmt(cb.get("codebleu"), False), _fmt(cb.get("ngram_match"), False),
                         _fmt(cb.get("weighted_ngram_match"), False), _fmt(cb.get("syntax_match"), False),
                         _fmt(cb.get("dataflow_match"), False), _fmt(rl.get("precision"), False),
                         _fmt(rl.get("recall"), False), _fmt(rl.get("f"), False)]])]
    if "errors" in s:
        total = s["errors_total"]
        rows = [[cls, n, _fmt(n / total if total else None)] for cls, n in s["errors"].items()]
        out += ["", f"## Error distribution ({total} failed samples)", "",
                _table(["error class", "samples", "%"], rows) if rows else "No failures."]
        out += ["", _table(["status", "samples"], [[k, v] for k, v in s["statuses"].items()])]
    if s.get("hallucination"):
        h = s["hallucination"]
        out += ["", "## Hallucinated PennyLane API", "",
                f"Rate: {_fmt(h['rate'])}% of {h['samples_checked']} samples"
                + (f" ({h['unparsable']} did not parse)" if h["unparsable"] else "")
                + (f"; {h['samples_with_wrong_version_api']} use an API removed from or newer than "
                   "the target version" if h["samples_with_wrong_version_api"] else "")
                + (". Most common: " + ", ".join(f"`{n}` ({c})" for n, c in h["most_common"])
                   if h["most_common"] else ".")]
    if report.signatures:
        out += ["", "Signatures:", ""] + [f"- `{sig}`" for sig in report.signatures.values()]
    return "\n".join(out) + "\n"


def plot_report(report: Report, out: Path) -> dict[str, Path]:
    """pass@k bars per group and the error-class bars, as PNG (needs matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return {}
    paths: dict[str, Path] = {}
    table = report.summary.get("pass@k")
    if table:
        ks = [key for key in next(iter(table.values())) if key.startswith("pass@")]
        fig, ax = plt.subplots(figsize=(6, 3.5))
        width = 0.8 / max(len(ks), 1)
        names = list(table)
        for i, key in enumerate(ks):
            vals = [100 * (table[n][key] or 0.0) for n in names]
            ax.bar([x + i * width for x in range(len(names))], vals, width, label=key)
        ax.set_xticks([x + width * (len(ks) - 1) / 2 for x in range(len(names))], names)
        ax.set_ylabel("%")
        ax.set_ylim(0, 100)
        ax.set_title(f"{report.benchmark}: pass@k")
        ax.legend()
        fig.tight_layout()
        paths["pass_at_k"] = out / "pass_at_k.png"
        fig.savefig(paths["pass_at_k"], dpi=120)
        plt.close(fig)
    errors = report.summary.get("errors")
    if errors:
        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.bar(list(errors), list(errors.values()), color="tab:red")
        ax.set_ylabel("failed samples")
        ax.set_title(f"{report.benchmark}: error classes")
        fig.tight_layout()
        paths["errors"] = out / "errors.png"
        fig.savefig(paths["errors"], dpi=120)
        plt.close(fig)
    return paths


def refinement_curve(results: list[Any], max_rounds: int | None = None) -> list[float]:
    """Share of problems solved within r rounds, r = 1..max_rounds, from ``refine()`` results."""
    if not results:
        return []
    rounds = max_rounds or max(len(r.rounds) for r in results)
    firsts = [r.first_ac_round for r in results]
    return [sum(f is not None and f < r for f in firsts) / len(results) for r in range(1, rounds + 1)]


def plot_refinement(success_by_round: list[float], path: str | Path, title: str = "") -> Path:
    """Success rate (0-1) against refinement round, as a PNG line plot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(range(1, len(success_by_round) + 1), [100 * v for v in success_by_round], marker="o")
    ax.set_xlabel("refinement round")
    ax.set_ylabel("solved (%)")
    ax.set_ylim(0, 100)
    ax.set_title(title or "success against refinement round")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return Path(path)
