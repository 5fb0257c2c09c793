"""The report: per-sample, per-problem and summary levels, rendered as JSON, Markdown and plots.

This module renders only; the numbers come from :mod:`.scoring`. The Markdown lays the tables
out as the source papers print them: pass@k per year (QHack) or contest (QCoder) with bootstrap
intervals, and per category where the benchmark declares one, a code-similarity table (CodeBLEU
and its components, ROUGE-L) that names what it compared against, an error distribution table
(error classes of failed samples, verdict statuses), one row per problem and the signatures.
"""

from __future__ import annotations

import json
import math
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .provenance import Provenance


@dataclass
class Report:
    """What :func:`~quantum_codegen_eval.evaluate` returns."""

    benchmark: str
    config: str | None
    summary: dict[str, Any]
    per_problem: list[dict[str, Any]]
    per_sample: list[dict[str, Any]]
    signatures: dict[str, str] = field(default_factory=dict)
    #: the judge signature and run facts (``evaluate`` fills it; ``None`` for hand-made reports)
    provenance: Provenance | None = None
    #: a refinement run's section (``refinement.refine_all``): success and pass@k after each
    #: round, every chain's history; None for a plain evaluation
    refinement: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"benchmark": self.benchmark, "config": self.config, "summary": self.summary,
               "per_problem": self.per_problem, "per_sample": self.per_sample,
               "signatures": self.signatures,
               "provenance": self.provenance.to_dict() if self.provenance else None}
        if self.refinement is not None:
            out["refinement"] = self.refinement
        return out

    def to_json(self, **kwargs: Any) -> str:
        """Strict JSON: a NaN or infinity (a verdict's details can hold numbers a program
        produced) is written as null, never as the ``NaN`` most JSON parsers reject."""
        return strict_json(self.to_dict(), **kwargs)

    def to_markdown(self) -> str:
        return render_markdown(self)

    def push_to_hub(self, repo_id: str, *, folder: str | Path, label: str | None = None,
                    dry_run: bool = False, private: bool = False, token: str | None = None) -> str:
        """Add this run to the details-style dataset folder ``folder`` and upload it as Hub
        dataset ``repo_id`` (``qce publish-run``; see docs/publish-run.md); ``dry_run`` builds
        and checks the folder only. Returns a one-line summary."""
        from .publish_run import push_report

        return push_report(json.loads(self.to_json()), repo_id, folder=folder,
                           label=label or _title(self), dry_run=dry_run, private=private,
                           token=token)

    def notes(self) -> list[str]:
        """What a reader must not miss, one line each (also in report.md; ``qce evaluate``
        prints them on stderr): a pass@k that could not be estimated, and why."""
        s = self.summary
        out = []
        for k, short in s.get("k_above_samples", {}).items():
            out.append(f"pass@{k} is not estimated for {len(short)} of "
                       f"{s['problems_with_predictions']} problems, which have fewer than {k} "
                       f"samples ({_some(short, 5)}); so neither for their "
                       f"{s.get('group_by') or 'group'} nor for 'all' (shown as –); give at "
                       f"least {k} samples per problem, or a smaller -k")
        return out

    def save(self, out: str | Path) -> dict[str, Path]:
        """Write report.json, report.md and the plots into ``out``; returns the paths."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        paths = {"json": out / "report.json", "markdown": out / "report.md"}
        paths["json"].write_text(self.to_json(indent=2))
        paths["markdown"].write_text(self.to_markdown())
        paths.update(plot_report(self, out))
        return paths


def strict_json(value: Any, **kwargs: Any) -> str:
    """``json.dumps`` that writes NaN and infinities as null (strict JSON) and odd objects as
    their ``str``."""
    return json.dumps(_finite(value), default=str, allow_nan=False, **kwargs)


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


# ---------------------------------------------------------------- rendering


def _fmt_ci(value: Any, interval: list[float] | None) -> str:
    """A pass@k cell: the percentage and its bootstrap interval."""
    if value is None or not interval:
        return _fmt(value)
    return f"{_fmt(value)} [{_fmt(interval[0])}, {_fmt(interval[1])}]"


#: what a caveat's "check trust" means (docs/benchmarks/qhack.md, "check_trust")
CHECK_TRUST = {
    "circuit": "the official check needs live objects; the judge decided with its own trusted "
               "check, rebuilding and simulating the circuits the program emitted",
    "live": "the official check ran inside the program's process (no trusted check exists): the "
            "verdict could be forged by the program",
}


def _fmt(value: Any, pct: bool = True) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{100 * value:.1f}" if pct else f"{value:.4f}"
    return str(value)


# what could end a table cell or a code span, or start HTML or an entity; backslash so that
# "\\|" stays inert. ">" is left as it is: mid-line it starts nothing, and "&gt;=" reads badly
_MARKDOWN = {"|": "\\|", "`": "\\`", "\\": "\\\\", "<": "&lt;", "&": "\\&"}


def inline(value: Any, limit: int = 200, code: bool = False) -> str:
    """``value`` as inert one-line Markdown text (``code``: for inside a code span, where a
    backtick is shown as ``\\u0060``). Ids and messages come from the predictions file and the
    programs, so no character may start a line, a table cell, HTML or a terminal escape: control,
    format and separator characters and lone surrogates are shown as ``\\uXXXX``. Cut to
    ``limit`` characters."""
    text = str(value)
    out = []
    for ch in text[:limit]:
        if code and ch == "`":
            out.append(f"\\u{ord(ch):04x}")
        elif code:
            out.append(ch if unicodedata.category(ch)[0] != "C"
                       and unicodedata.category(ch) not in ("Zl", "Zp") else f"\\u{ord(ch):04x}")
        elif ch in _MARKDOWN:
            out.append(_MARKDOWN[ch])
        elif unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp"):
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out) + ("…" if len(text) > limit else "")


def _table(header: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(inline(c) for c in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(inline(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _some(items: list[str], n: int = 10) -> str:
    return ", ".join(inline(x) for x in items[:n]) + (
        f", ... ({len(items) - n} more)" if len(items) > n else "")


def _reference_label(kinds: dict[str, int] | None) -> str:
    """'template', 'reference solution', or both with their pair counts."""
    if not kinds:
        return "reference"
    if len(kinds) == 1:
        return next(iter(kinds))
    return " / ".join(f"{k} ({n} pairs)" for k, n in kinds.items())


def _reference_note(kinds: dict[str, int] | None) -> list[str]:
    if kinds and "template" in kinds:
        return ["Compared against the challenge template, not a solution (the PennySynth "
                "protocol): this measures how much of the given structure a completion keeps, "
                "not whether it is correct.", ""]
    return []


def render_markdown(report: Report) -> str:
    s = report.summary
    title = inline(_title(report))
    out = [f"# Evaluation report: {title}", "",
           f"{s['predictions']} predictions on {s['problems_with_predictions']} problems "
           f"in {s['seconds']} s."]
    programs = s.get("programs")
    if programs:
        out.append(f"Programs judged: {programs['distinct']} distinct of {programs['samples']} "
                   + ("samples (identical programs of a problem judged once, each sample counted)."
                      if programs["copies_judged_once"] else "samples (every copy judged)."))
    if s["problems_without_predictions"]:
        out.append(f"{len(s['problems_without_predictions'])} problems have no prediction "
                   "(not counted in pass@k).")
    if s["unknown_ids"]:
        out.append(f"{len(s['unknown_ids'])} predictions name unknown problem ids (FORMAT, not "
                   f"counted in pass@k): {_some(s['unknown_ids'])}")
    if s.get("unreadable"):
        out.append(f"{len(s['unreadable'])} predictions could not be read (FORMAT, not counted "
                   f"in pass@k): {_some(s['unreadable'])}")
    if s.get("missing"):
        out.append(f"{len(s['missing'])} requests failed in the generating tool (missing: not "
                   f"judged, not samples): {_some(s['missing'])}")
    if s.get("duplicates"):
        out.append(f"{len(s['duplicates'])} predictions repeat an (id, sample) already given "
                   f"(FORMAT, counted as failed samples): {_some(s['duplicates'])}")
    notes = report.notes()
    if notes:
        out += ["", "## Notes", ""] + [f"- {inline(n, 2000)}" for n in notes]
    if s.get("flags"):
        out += ["", "## Caveats", "", "These counted problems need a caveat (see the benchmark's "
                "documentation):", ""]
        out += [f"- `{inline(pid, code=True)}`: {inline('; '.join(why), 1000)}" for pid, why in s["flags"].items()]
        trusts = sorted({f.split(": ", 1)[1] for why in s["flags"].values() for f in why
                         if f.startswith("check trust: ")})
        out += ["", *(f"*check trust: {t}*: {inline(CHECK_TRUST.get(t, 'see the benchmark documentation'), 1000)}."
                      for t in trusts)] if trusts else []
    if "pass@k" in s:
        group = s.get("group_by") or "group"
        out += ["", "## pass@k (%)", "", _passk_table(s["pass@k"], group, s.get("pass@k_ci"))]
        method = s.get("pass@k_ci_method")
        if method:
            out += ["", f"In brackets: {100 * method['level']:g} % {method['method']} "
                    f"({method['n_boot']} resamples, seed {method['seed']}). pass@k of a group "
                    "(and of 'all') is the mean over its problems; it is estimated only when "
                    "every one of them has at least k samples."]
        for by, table in s.get("pass@k_by", {}).items():
            out += ["", f"## pass@k by {inline(by)} (%)", "",
                    _passk_table(table, by, s.get("pass@k_by_ci", {}).get(by))]
        runnable = s.get("pass@k_runnable")
        if runnable:
            out += ["", f"Without the {len(s.get('unrunnable', []))} problem(s) that cannot pass "
                    "in this environment (see Caveats):", "",
                    _passk_table(runnable, group, None)]
        without = s.get("pass@k_without_judge_limitations")
        if without:
            out += ["", f"Without the {sum(s.get('judge_limitations', {}).values())} sample(s) "
                    "the judge cannot judge (see Judge limitations; a problem left with fewer "
                    "than k samples is not estimated):", "", _passk_table(without, group, None)]
    if s.get("judge_limitations"):
        out += render_judge_limitations(s)
    if "fidelity" in s:
        out += render_fidelity(s)
    if "codebleu" in s or "rouge_l" in s:
        cb, rl = s.get("codebleu", {}), s.get("rouge_l", {})
        out += ["", f"## Code similarity to the {_reference_label(s.get('similarity_reference'))}",
                ""] + _reference_note(s.get("similarity_reference")) + [
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
                + (". Most common: " + ", ".join(f"`{inline(n, code=True)}` ({c})" for n, c in h["most_common"])
                   if h["most_common"] else ".")]
    if report.refinement:
        out += render_refinement(report.refinement)
    if report.per_problem and "pass@k" in s:
        out += ["", "## Per problem", "", _per_problem_table(report)]
    if report.signatures:
        out += ["", "## Signatures", ""] + [
            f"- {inline(name)}: `{inline(sig, 1000, code=True)}`"
            for name, sig in report.signatures.items()]
    if report.provenance is not None:
        out += ["", *_provenance_lines(report.provenance)]
    return "\n".join(out) + "\n"


def render_judge_limitations(s: dict[str, Any]) -> list[str]:
    """The samples the judge deliberately cannot judge, by reason, with what each reason means
    (``summary["judge_limitation_meanings"]``, from ``verdict.JUDGE_LIMITATIONS``)."""
    samples = s.get("judge_limitation_samples", {})
    meanings = s.get("judge_limitation_meanings", {})
    rows = []
    for reason, n in s["judge_limitations"].items():  # _table makes each cell inert
        keys = samples.get(reason, [])
        rows.append([reason, n, meanings.get(reason, "see the benchmark documentation"),
                     ", ".join(keys[:5]) + (f", ... ({len(keys) - 5} more)" if len(keys) > 5
                                            else "")])
    return ["", "## Judge limitations", "",
            "Samples the judge deliberately cannot judge here: not the model's failure, never a "
            "pass, no error class (their own bucket in the error distribution); pass@k is also "
            "given without them.", "",
            _table(["reason", "samples", "what it means", "samples (keys)"], rows)]


def _provenance_lines(prov: Provenance) -> list[str]:
    r = prov.run
    return ["## Provenance", "",
            f"- judge signature: `{inline(prov.signature.render(), 2000, code=True)}`",
            "- run: " + inline(f"started {r.started}, {r.seconds:.1f} s, "
                               f"{r.workers if r.workers is not None else 'default'} workers, "
                               f"{r.platform}, Python {r.python}"
                               + (f", data from {r.data}" if r.data else ""), 1000)]


def render_refinement(ref: dict[str, Any]) -> list[str]:
    """The Markdown lines of a refinement run's section: the curve as a table, then every
    chain's statuses round by round."""
    ks = list(ref.get("pass@k_by_round", {}))
    rows = [[r, ref["answers_by_round"][r], ref["solved_by_round"][r],
             _fmt(ref["success_by_round"][r]), *(_fmt(ref["pass@k_by_round"][k][r]) for k in ks)]
            for r in range(len(ref["solved_by_round"]))]
    out = ["", "## Refinement", "",
           f"{ref['chains']} chains ({ref['samples_per_problem']} per problem), at most "
           f"{ref['rounds']} repairs; {inline(ref['round_numbering'], 1000)}. Row r counts the "
           "chains solved by the end of round r.", "",
           _table(["round", "answers", "solved chains", "solved (%)", *(f"{k} (%)" for k in ks)],
                  rows), "", "### Round history", ""]
    out.append(_table(["sample", "first AC round", "statuses by round"],
                      [[h["key"], "–" if h["first_ac_round"] is None else h["first_ac_round"],
                        " → ".join(x["status"] for x in h["rounds"])] for h in ref["histories"]]))
    return out


def render_fidelity(s: dict[str, Any]) -> list[str]:
    """The summary's partial credit by fidelity (docs/metrics/fidelity.md), as Markdown lines."""
    out = []
    tables = [(s.get("group_by") or "group", s["fidelity"]),
              *((by, t) for by, t in s.get("fidelity_by", {}).items())]
    for i, (by, table) in enumerate(tables):
        out += ["", "## Mean fidelity (%)" + (f" by {inline(by)}" if i else ""), "",
                _table([inline(by), "problems", "samples", "mean fidelity"],
                       [[name, e["problems"], e["samples"], _fmt_ci(e["fidelity"], e["ci"])]
                        for name, e in table.items()])]
    if s.get("fidelity_method"):
        out += ["", f"Fidelity: {inline(s['fidelity_method'], 1000)}."]
    return out


def _passk_table(table: dict[str, Any], group: str, ci: dict[str, Any] | None) -> str:
    ks = [key for key in next(iter(table.values())) if key.startswith("pass@")]
    rows = [[name, entry["problems"],
             *(_fmt_ci(entry[k], (ci or {}).get(name, {}).get(k)) for k in ks),
             _fmt(entry["partial_credit"])] for name, entry in table.items()]
    return _table([group, "problems", *ks, "partial credit"], rows)


def _per_problem_table(report: Report) -> str:
    """One row per counted problem: samples, correct, partial credit, statuses, caveats."""
    extra = list(report.summary.get("pass@k_by", {}))
    rows = [[r["problem_id"], r["group"], *(r.get(key, "") for key in extra), r["n"], r["correct"],
             _fmt(r["partial_credit"]),
             ", ".join(f"{st} {c}" for st, c in r["statuses"].items()),
             "; ".join(r.get("flags", []))] for r in report.per_problem]
    return _table(["problem", report.summary.get("group_by") or "group", *extra, "samples",
                   "correct", "partial credit (%)", "statuses", "caveats"], rows)


def _title(report: Report) -> str:
    return report.benchmark + (f" ({report.config})" if report.config else "")


def report_figures(report: Report) -> dict[str, Any]:
    """The report's matplotlib figures by name: ``pass_at_k`` (bars per group) and ``errors``
    (failed samples per error class, integer axis); titles name benchmark and config."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    figures: dict[str, Any] = {}
    table = report.summary.get("pass@k")
    if table:
        names = list(table)
        ks = [key for key in next(iter(table.values())) if key.startswith("pass@")]
        shown = [k for k in ks if any(table[n][k] is not None for n in names)]
        ci = report.summary.get("pass@k_ci") or {}
        fig, ax = plt.subplots(figsize=(7, 3.5))
        width = 0.8 / max(len(shown), 1)
        for i, key in enumerate(shown):
            xs = [x + i * width for x, n in enumerate(names) if table[n][key] is not None]
            vals = [100 * table[n][key] for n in names if table[n][key] is not None]
            bounds = [ci.get(n, {}).get(key) or [table[n][key]] * 2
                      for n in names if table[n][key] is not None]
            err = [[max(v - 100 * lo, 0) for v, (lo, _) in zip(vals, bounds, strict=True)],
                   [max(100 * hi - v, 0) for v, (_, hi) in zip(vals, bounds, strict=True)]]
            ax.bar(xs, vals, width, label=key, yerr=err if ci else None, capsize=3,
                   error_kw={"elinewidth": 1, "ecolor": "0.25"})
        ax.set_xticks([x + width * (len(shown) - 1) / 2 for x in range(len(names))], names)
        ax.set_xlabel(report.summary.get("group_by") or "group")
        ax.set_ylabel("%")
        ax.set_ylim(0, 105)  # room for a whisker's cap at 100
        ax.set_yticks(range(0, 101, 20))
        missing = [k for k in ks if k not in shown]
        level = (report.summary.get("pass@k_ci_method") or {}).get("level", 0.95)
        ax.set_title(f"{_title(report)}: pass@k" + (f" with {100 * level:g} % intervals" if ci
                                                     else "")
                     + (f" ({', '.join(missing)}: not estimated)" if missing else ""),
                     fontsize=10)
        if shown:  # beside the axes, so that no bar is covered
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
        fig.tight_layout()
        figures["pass_at_k"] = fig
    errors = report.summary.get("errors")
    if errors:
        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.bar(list(errors), list(errors.values()), color="tab:red")
        ax.set_ylabel("failed samples")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(f"{_title(report)}: error classes")
        fig.tight_layout()
        figures["errors"] = fig
    if report.refinement and report.refinement.get("success_by_round"):
        figures["refinement"] = refinement_figure(report.refinement["success_by_round"],
                                                  f"{_title(report)}: success against round",
                                                  first_round=0)
    return figures


def plot_report(report: Report, out: Path) -> dict[str, Path]:
    """The report's figures as PNG files in ``out`` (none without matplotlib)."""
    try:
        import matplotlib.pyplot as plt

        figures = report_figures(report)
    except ImportError:
        return {}
    paths: dict[str, Path] = {}
    for name, fig in figures.items():
        paths[name] = out / f"{name}.png"
        fig.savefig(paths[name], dpi=120)
        plt.close(fig)
    return paths


def refinement_curve(results: list[Any], max_rounds: int | None = None) -> list[float]:
    """Share of problems solved within r rounds, r = 1..max_rounds, from ``refine()`` results."""
    if not results:
        return []
    rounds = max_rounds or max(len(r.rounds) for r in results)
    firsts = [r.first_ac_round for r in results]
    return [sum(f is not None and f < r for f in firsts) / len(results) for r in range(1, rounds + 1)]


def refinement_figure(success_by_round: list[float | None], title: str = "", *,
                      first_round: int = 1) -> Any:
    """Success rate (0-1) against refinement round as a matplotlib line plot; the first value
    is round ``first_round`` (``refine_all`` reports count from 0, ``refinement_curve`` from 1)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(range(first_round, first_round + len(success_by_round)),
            [100 * (v or 0.0) for v in success_by_round], marker="o")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("refinement round" + (" (0: first answer)" if first_round == 0 else ""))
    ax.set_ylabel("solved (%)")
    ax.set_ylim(0, 100)
    ax.set_title(title or "success against refinement round")
    fig.tight_layout()
    return fig


def plot_refinement(success_by_round: list[float], path: str | Path, title: str = "") -> Path:
    """Success rate (0-1) against refinement round (1, 2, ...), as a PNG line plot."""
    import matplotlib.pyplot as plt

    fig = refinement_figure(success_by_round, title)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return Path(path)
