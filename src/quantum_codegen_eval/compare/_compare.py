"""``compare(runs)``: several runs of one benchmark side by side, with paired statistics.

See docs/compare.md for every definition. The steps: read the runs (:mod:`._runs`), refuse runs
that are not comparable (benchmark, config, problem set, judge signature) with one line naming
the difference, or with ``allow_mismatch`` keep them and put a caveat in every output; then the
tables (:mod:`._tables`) and figures (:mod:`._plots`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..metrics.paired import holm, paired_difference
from ..metrics.passk import pass_at_k_ci, pass_at_k_per_problem
from ..provenance import signature_differences
from ..report import inline, strict_json
from ..verdict import ERROR_BUCKETS, ERROR_CLASSES, STATUSES
from ._fidelity import fidelity_tables
from ._human import HumanRow, human_rates
from ._retrieval import retrieval_tables
from ._runs import Run, load_run
from ._tables import Interval, Table

DEFAULT_N_BOOT = 10_000


class NotComparable(ValueError):
    """Runs that cannot be compared; the one-line message names the difference."""


@dataclass(frozen=True)
class PairResult:
    """``a`` minus ``b`` in pass@``k`` over ``problems`` shared problems."""

    a: str
    b: str
    k: int
    problems: int
    difference: float
    low: float
    high: float
    p_value: float
    p_holm: float
    method: str
    nonzero: int


@dataclass
class Comparison:
    """What :func:`compare` returns: the runs, the tables by name, the pairs, the caveats."""

    runs: list[Run]
    k: tuple[int, ...]
    seed: int
    n_boot: int
    tables: dict[str, Table]
    pairs: list[PairResult]
    caveats: list[str] = field(default_factory=list)
    passk: dict[int, dict[str, dict[str, Interval | None]]] = field(default_factory=dict)
    groups: list[str] = field(default_factory=list)
    human: HumanRow | None = None

    # ------------------------------------------------------------ rendering
    def to_markdown(self) -> str:
        r0 = self.runs[0]
        out = [f"# Comparison: {inline(r0.benchmark)}" + (f" ({inline(r0.config)})" if r0.config else ""), ""]
        if self.caveats:
            out += ["**Caveats**:", ""] + [f"- {inline(c, 2000)}" for c in self.caveats] + [""]
        out += ["Runs and their judge signatures:", ""]
        out += [f"- {inline(run.label)} ({run.kind} `{inline(run.path, 300, code=True)}`): `"
                + inline(run.provenance.signature.render() if run.provenance else "no provenance",
                         1000, code=True) + "`" for run in self.runs]
        out.append("")
        out += [t.to_markdown() for t in self.tables.values()]
        return "\n".join(out)

    def to_dict(self) -> dict[str, Any]:
        return {
            "benchmark": self.runs[0].benchmark, "config": self.runs[0].config,
            "k": list(self.k), "seed": self.seed, "n_boot": self.n_boot, "caveats": self.caveats,
            "runs": [{"label": r.label, "path": r.path, "kind": r.kind,
                      "provenance": r.provenance.to_dict() if r.provenance else None}
                     for r in self.runs],
            "pairs": [vars(p) for p in self.pairs],
            "tables": {name: t.to_dict() for name, t in self.tables.items()},
        }

    def figures(self) -> dict[str, Any]:
        """The matplotlib figures by name (see :mod:`._plots`)."""
        from ._plots import grouped_bars, stacked_bars

        labels = [r.label for r in self.runs]
        title = self.runs[0].benchmark + (f" ({self.runs[0].config})" if self.runs[0].config else "")
        figs: dict[str, Any] = {}
        cols = [*self.groups, "all"] if len(self.groups) > 1 else ["all"]
        for k in self.k:
            values = [[self.passk[k][lab].get(g) for g in cols] for lab in labels]
            if any(v is not None for row in values for v in row):
                figs[f"pass_at_{k}"] = grouped_bars(
                    f"{title}: pass@{k} (95% bootstrap interval)", cols, labels, values,
                    f"pass@{k} (%)", self.runs[0].group_by)
        errors = self.tables.get("errors")
        if errors and errors.rows:
            cats = errors.header[2:]
            shares = [[row[2 + i] or 0.0 for i in range(len(cats))] for row in errors.rows]
            figs["errors"] = stacked_bars(f"{title}: error classes of failed samples",
                                          [f"{row[0]}\n({row[1]} failed)" for row in errors.rows],
                                          cats, shares,
                                          "failed samples (%)")
        statuses = self.tables.get("statuses")
        if statuses and statuses.rows:
            cats = statuses.header[1:]
            shares = [[row[1 + i] or 0.0 for i in range(len(cats))] for row in statuses.rows]
            figs["statuses"] = stacked_bars(f"{title}: verdict statuses", [row[0] for row in statuses.rows],
                                            cats, shares, "samples (%, mean over problems)")
        return figs

    def save(self, out: str | Path) -> dict[str, Path]:
        """Write every table (``tables/<name>.md|.tex|.csv|.json``), every figure
        (``figures/<name>.png|.pdf``), ``comparison.md`` and ``comparison.json`` into ``out``."""
        out = Path(out)
        (out / "tables").mkdir(parents=True, exist_ok=True)
        (out / "figures").mkdir(parents=True, exist_ok=True)
        paths: dict[str, Path] = {}
        for name, table in self.tables.items():
            for ext, text in (("md", table.to_markdown()), ("tex", table.to_latex()),
                              ("csv", table.to_csv()), ("json", table.to_json())):
                paths[f"tables/{name}.{ext}"] = p = out / "tables" / f"{name}.{ext}"
                p.write_text(text, encoding="utf-8")
        try:
            import matplotlib.pyplot as plt

            figures = self.figures()
        except ImportError:  # pragma: no cover - matplotlib is a dependency
            figures = {}
        if self.caveats:  # CSV has no room for notes: the caveats beside the tables
            paths["caveats"] = out / "tables" / "CAVEATS.txt"
            paths["caveats"].write_text("\n".join(self.caveats) + "\n", encoding="utf-8")
        for name, fig in figures.items():
            if self.caveats:
                fig.text(0.01, 0.005, "caveat: runs not comparable, compared anyway "
                         "(see comparison.md)", fontsize=7, color="tab:red", va="bottom")
            for ext in ("png", "pdf"):
                paths[f"figures/{name}.{ext}"] = p = out / "figures" / f"{name}.{ext}"
                fig.savefig(p, dpi=150 if ext == "png" else None, bbox_inches="tight")
            plt.close(fig)
        paths["markdown"] = out / "comparison.md"
        paths["markdown"].write_text(self.to_markdown(), encoding="utf-8")
        paths["json"] = out / "comparison.json"
        paths["json"].write_text(strict_json(self.to_dict(), indent=2), encoding="utf-8")
        return paths


# ------------------------------------------------------------------ reading and checking

def _as_runs(runs: Any, groups: dict[str, str] | None) -> list[Run]:
    if isinstance(runs, Mapping):
        items: list[tuple[str | None, Any]] = list(runs.items())
    else:
        items = [(None, r) for r in runs]
    out = []
    for label, r in items:
        if isinstance(r, Run):
            if label:
                r.label = label
            out.append(r)
        else:
            out.append(load_run(r, label, groups))
    return out


def _problem_set_difference(a: Run, b: Run) -> str:
    only_a, only_b = sorted(set(a.problems) - set(b.problems)), sorted(set(b.problems) - set(a.problems))

    def few(xs: list[str]) -> str:
        return ", ".join(xs[:3]) + (f" and {len(xs) - 3} more" if len(xs) > 3 else "")

    parts = [f"{len(a.problems)} vs {len(b.problems)} problems"]
    if only_a:
        parts.append(f"only in {a.label}: {few(only_a)}")
    if only_b:
        parts.append(f"only in {b.label}: {few(only_b)}")
    return "problem set " + "; ".join(parts)


def differences(a: Run, b: Run) -> list[str]:
    """Why runs ``a`` and ``b`` are not comparable (empty: they are)."""
    return _differences(a, b, missing_provenance=True)


def _missing_provenance(run: Run) -> str:
    return f"{run.label} has no provenance ({run.provenance_problem})"


def _differences(a: Run, b: Run, *, missing_provenance: bool) -> list[str]:
    out = []
    if a.benchmark != b.benchmark:
        out.append(f"benchmark {a.benchmark} vs {b.benchmark}")
    if a.config != b.config:
        out.append(f"config {a.config} vs {b.config}")
    if set(a.problems) != set(b.problems):
        out.append(_problem_set_difference(a, b))
    if missing_provenance:
        out += [_missing_provenance(run) for run in (a, b) if run.provenance is None]
    if a.provenance and b.provenance:
        out += signature_differences(a.provenance.signature, b.provenance.signature)
    return out


def _check(runs: list[Run], allow_mismatch: bool) -> list[str]:
    labels = [r.label for r in runs]
    dup = sorted({x for x in labels if labels.count(x) > 1})
    if dup:
        raise NotComparable(f"two runs have the label {dup[0]!r}: name them (--label NAME=PATH)")
    caveats = []
    for r in runs:  # once per run, not once per pair
        if r.provenance is None:
            if not allow_mismatch:
                raise NotComparable(f"{r.label}: {r.provenance_problem}")
            caveats.append("not comparable, compared anyway (--allow-mismatch): "
                           + _missing_provenance(r))
    for a, b in itertools.combinations(runs, 2):
        for diff in _differences(a, b, missing_provenance=False):
            if not allow_mismatch:
                raise NotComparable(f"runs {a.label} and {b.label} are not comparable: {diff} "
                                    "(--allow-mismatch compares them anyway, with a caveat)")
            caveats.append(f"not comparable, compared anyway (--allow-mismatch): {a.label} vs "
                           f"{b.label}: {diff}")
    return caveats


# ------------------------------------------------------------------ the tables

def _per_problem(run: Run, pids: Sequence[str], k: int) -> list[float] | None:
    ns = [run.problems[p].n for p in pids]
    if not ns or min(ns) < k:
        return None
    return [float(x) for x in pass_at_k_per_problem(ns, [run.problems[p].correct for p in pids], k)]


def _passk_tables(runs: list[Run], ks: tuple[int, ...], n_boot: int, seed: int
                  ) -> tuple[dict[int, dict[str, dict[str, Interval | None]]], list[str], list[Table]]:
    groups = sorted({p.group for r in runs for p in r.problems.values()})
    cols = [*groups, "all"] if len(groups) > 1 else ["all"]
    values: dict[int, dict[str, dict[str, Interval | None]]] = {}
    tables = []
    for k in ks:
        values[k] = {}
        for run in runs:
            row: dict[str, Interval | None] = {}
            for g in cols:
                pids = [p for p, c in run.problems.items() if g == "all" or c.group == g]
                ns = [run.problems[p].n for p in pids]
                if not pids or min(ns) < k:
                    row[g] = None
                    continue
                ci = pass_at_k_ci(ns, [run.problems[p].correct for p in pids], k, n_boot=n_boot,
                                  seed=seed)
                row[g] = Interval(float(ci.value), ci.low, ci.high)
            values[k][run.label] = row
        counts = {g: max(sum(1 for c in r.problems.values() if g == "all" or c.group == g)
                         for r in runs) for g in cols}
        group_by = runs[0].group_by
        header = ["system", *(f"{g} (n={counts[g]})" for g in cols)]
        notes = [f"pass@{k} in % per {group_by} and overall (unbiased estimator of Chen et al. "
                 f"2021, mean over problems) with a 95 % percentile bootstrap interval over "
                 f"problems ({n_boot} resamples, seed {seed})."
                 + (f" –: some problem of the group has fewer than {k} samples." if k > 1 else "")]
        tables.append(Table(f"pass_at_{k}", f"pass@{k} (%) per {group_by}", header,
                            [[run.label, *(values[k][run.label][g] for g in cols)] for run in runs],
                            ["text", *["pct"] * len(cols)], notes))
    if len(ks) > 1:  # every k side by side (the PennySynth paper's Table II), intervals apart
        header = ["system", *(f"{g} pass@{k}" for g in cols for k in ks)]
        rows = [[run.label, *(v.value if (v := values[k][run.label][g]) else None
                              for g in cols for k in ks)] for run in runs]
        tables.insert(0, Table("pass_at_k", f"pass@k (%) per {runs[0].group_by}", header, rows,
                               ["text", *["pct"] * (len(header) - 1)],
                               [f"pass@k in % per {runs[0].group_by} and overall; the intervals "
                                "are in the pass_at_<k> tables."]))
    return values, groups, tables


def _pairs_table(runs: list[Run], ks: tuple[int, ...], n_boot: int, seed: int
                 ) -> tuple[list[PairResult], Table | None]:
    results: list[PairResult] = []
    for k in ks:
        found = []
        for a, b in itertools.combinations(runs, 2):
            pids = sorted(set(a.problems) & set(b.problems))
            va, vb = _per_problem(a, pids, k), _per_problem(b, pids, k)
            if va is None or vb is None:
                continue
            found.append((a, b, len(pids), paired_difference(va, vb, n_boot=n_boot, seed=seed)))
        adjusted = holm([d.test.p_value for *_, d in found]) if found else []
        for (a, b, n, d), padj in zip(found, adjusted, strict=True):
            results.append(PairResult(a.label, b.label, k, n, d.difference, d.low, d.high,
                                      d.test.p_value, padj, d.test.method
                                      + (f" ({d.test.resamples} resamples, seed {d.test.seed})"
                                         if d.test.method == "monte-carlo" else ""),
                                      d.test.nonzero))
    if not results:
        return results, None
    rows = [[f"{p.a} − {p.b}", p.k, p.problems, Interval(p.difference, p.low, p.high), p.p_value,
             p.p_holm, p.nonzero, p.method] for p in results]
    notes = ["Difference in pass@k (percentage points, first minus second) over the same "
             f"problems, 95 % paired bootstrap interval ({n_boot} resamples of problems, seed "
             f"{seed}); p: two-sided paired sign-flip permutation test over problems (exact, or "
             "Monte-Carlo where stated; with one sample per problem it is McNemar's exact test); "
             "p (Holm): adjusted across the pairs of the same k; discordant: problems whose "
             "per-problem pass@k differs."]
    return results, Table("paired", "Paired comparisons", ["pair", "k", "problems", "difference",
                          "p", "p (Holm)", "discordant", "test"], rows,
                          ["text", "text", "text", "signed_pct", "p", "p", "text", "text"], notes)


_SIMILARITY_HEADER = ["system", "CodeBLEU", "n-gram", "weighted n-gram", "AST match (syntax)",
                      "dataflow", "ROUGE-L P", "ROUGE-L R", "ROUGE-L F"]


def _similarity_table(runs: list[Run]) -> Table | None:
    from ._runs import SIMILARITY_KEYS

    rows = [[r.label, *(r.similarity.get(k) for k in SIMILARITY_KEYS)] for r in runs]
    if all(v is None for row in rows for v in row[1:]):
        return None
    notes = ["Quantum CodeBLEU with its four components, and ROUGE-L (code tokens), of each "
             "run's candidate code against the benchmark's reference (corpus level, as in the "
             "run's report)."]
    if any(r.kind == "store" for r in runs):
        notes.append("Result stores carry no similarity scores: their rows are empty.")
    return Table("similarity", "Code similarity", _SIMILARITY_HEADER, rows,
                 ["text", *["score"] * 8], notes)


def _errors_table(runs: list[Run]) -> Table:
    classes = [c for c in ERROR_BUCKETS if c in ERROR_CLASSES or any(r.errors.get(c) for r in runs)]
    rows = [[r.label, r.errors_total, *((r.errors.get(c, 0) / r.errors_total) if r.errors_total
                                          else None for c in classes)] for r in runs]
    notes = ["Share (%) of each run's failed samples (any verdict other than AC, and judge "
             "errors) in each error class of the package's one mapping (verdict.classify_error); "
             "judge limitations and other judge errors in buckets of their own."]
    return Table("errors", "Error distribution of failed samples", ["system", "failed samples", *classes],
                 rows, ["text", "text", *["pct"] * len(classes)], notes)


def _status_rates(run: Run) -> dict[str, float]:
    counts = [c for c in run.problems.values() if c.n]
    if not counts:
        return {}
    statuses = {st for c in counts for st in c.statuses}
    return {st: sum(c.statuses.get(st, 0) / c.n for c in counts) / len(counts) for st in statuses}


def _status_table(runs: list[Run], human: HumanRow | None) -> Table:
    rates = {r.label: _status_rates(r) for r in runs}
    seen = {st for rs in rates.values() for st in rs} | set(human.rates if human else ())
    cols = [st for st in STATUSES if st in seen] + sorted(seen - set(STATUSES))
    rows = [[label, *(rs.get(st, 0.0) for st in cols)] for label, rs in rates.items()]
    notes = ["Share (%) of samples with each verdict status, per problem and then averaged over "
             "problems (so AC equals pass@1); the failure statuses are the stages of the judge "
             "(verdict.STATUSES)."]
    if human:
        rows.append(["human submissions", *(human.rates.get(st, 0.0) for st in cols)])
        notes.append(f"human submissions: the {human.which} version of each user's history of a "
                     f"problem ({human.users} histories, {human.versions} versions, "
                     f"{human.problems} problems), the contest judge's result; per problem, then "
                     "averaged over problems (docs/compare.md).")
    return Table("statuses", "Success and failure stages", ["system", *cols], rows,
                 ["text", *["pct"] * len(cols)], notes)


# ------------------------------------------------------------------ the entry point

def compare(runs: Sequence[Any] | Mapping[str, Any], *, out: str | Path | None = None,
            k: Sequence[int] = (1, 5), allow_mismatch: bool = False, seed: int = 0,
            n_boot: int = DEFAULT_N_BOOT, groups: dict[str, str] | None = None,
            human_submissions: Sequence[Mapping[str, Any]] | None = None,
            human_versions: str = "first") -> Comparison:
    """Compare runs of one benchmark (see docs/compare.md).

    ``runs``: report folders, report.json files or result stores (paths), :class:`Run` objects,
    or a mapping label -> path; the label defaults to the folder name. ``groups`` (problem id ->
    group) gives result stores their groups. ``human_submissions``: the rows of QCoder's
    ``submissions`` config (a human row in the status table). Raises :class:`NotComparable`
    (one line) unless ``allow_mismatch``; with ``out`` everything is also written there.
    """
    ks = tuple(int(x) for x in k)
    if not ks or any(x < 1 for x in ks):
        raise ValueError(f"compare: k must be positive integers, got {list(k)}")
    loaded = _as_runs(runs, groups)
    if len(loaded) < 2:
        raise NotComparable("compare needs at least two runs")
    caveats = _check(loaded, allow_mismatch)
    passk, group_names, tables = _passk_tables(loaded, ks, n_boot, seed)
    pairs, paired = _pairs_table(loaded, ks, n_boot, seed)
    named = {t.name: t for t in tables}
    if paired is not None:
        named["paired"] = paired
    named.update({t.name: t for t in fidelity_tables(loaded, n_boot, seed)})
    similarity = _similarity_table(loaded)
    if similarity is not None:
        named["similarity"] = similarity
    named["errors"] = _errors_table(loaded)
    named.update({t.name: t for t in retrieval_tables(loaded, ks, group_names, n_boot, seed)})
    shared = set.intersection(*(set(r.problems) for r in loaded))
    human = human_rates(human_submissions, shared, human_versions) if human_submissions else None
    named["statuses"] = _status_table(loaded, human)
    if human_submissions and human is None:
        caveats.append("human submissions were given, but none is for a compared problem")
    for t in named.values():
        t.notes = [*t.notes, *caveats]
    result = Comparison(loaded, ks, seed, n_boot, named, pairs, caveats, passk, group_names, human)
    if out is not None:
        result.save(out)
    return result
