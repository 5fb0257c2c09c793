"""The comparison's partial credit by fidelity (docs/metrics/fidelity.md): mean fidelity per
group with its bootstrap interval, and the paired test between runs on per-problem fidelity.

A run's per-problem fidelity is the mean over that problem's samples that have one (the report's
``per_problem[i]["fidelity"]``). Pairs compare the problems both runs have a fidelity for, with
:func:`..metrics.paired.paired_difference` (percentile bootstrap of the mean difference over
problems; paired sign-flip permutation test, exact up to 20 non-zero differences, else Monte
Carlo) and Holm's adjustment across the pairs.
"""

from __future__ import annotations

import itertools

from ..metrics.fidelity import mean_fidelity
from ..metrics.paired import holm, paired_difference
from ._runs import Run
from ._tables import Interval, Table


def fidelity_tables(runs: list[Run], n_boot: int, seed: int) -> list[Table]:
    """The ``fidelity`` and ``paired_fidelity`` tables (none when no run has a fidelity)."""
    if not any(r.fidelity for r in runs):
        return []
    groups = sorted({r.problems[p].group for r in runs for p in r.fidelity if p in r.problems})
    cols = [*groups, "all"] if len(groups) > 1 else ["all"]
    rows = []
    for run in runs:
        row: list = [run.label]
        for g in cols:
            values = [[f] for p, f in sorted(run.fidelity.items())
                      if g == "all" or (p in run.problems and run.problems[p].group == g)]
            m = mean_fidelity(values, n_boot=n_boot, seed=seed) if values else None
            row.append(Interval(m.value, m.low, m.high) if m else None)
        rows.append(row)
    notes = [f"Mean fidelity in % per {runs[0].group_by} and overall: per sample the judge's mean "
             "over all tests (1 for AC, 0 for a test not simulated; docs/metrics/fidelity.md), per "
             "problem the mean over its samples, then the mean over problems, with a 95 % "
             f"percentile bootstrap interval over problems ({n_boot} resamples, seed {seed}). "
             "Problems without a fidelity (classical or predicate-judged ones) are left out."]
    tables = [Table("fidelity", f"Mean fidelity (%) per {runs[0].group_by}",
                    ["system", *cols], rows, ["text", *["pct"] * len(cols)], notes)]
    found = []
    for a, b in itertools.combinations(runs, 2):
        pids = sorted(set(a.fidelity) & set(b.fidelity))
        if pids:
            found.append((a, b, len(pids), paired_difference(
                [a.fidelity[p] for p in pids], [b.fidelity[p] for p in pids],
                n_boot=n_boot, seed=seed)))
    if found:
        adjusted = holm([d.test.p_value for *_, d in found])
        prow = [[f"{a.label} − {b.label}", n, Interval(d.difference, d.low, d.high),
                 d.test.p_value, padj, d.test.nonzero, d.test.method
                 + (f" ({d.test.resamples} resamples, seed {d.test.seed})"
                    if d.test.method == "monte-carlo" else "")]
                for (a, b, n, d), padj in zip(found, adjusted, strict=True)]
        tables.append(Table(
            "paired_fidelity", "Paired comparisons of mean fidelity",
            ["pair", "problems", "difference", "p", "p (Holm)", "differing", "test"], prow,
            ["text", "text", "signed_pct", "p", "p", "text", "text"],
            ["Difference in mean fidelity (percentage points, first minus second) over the "
             f"problems both runs have a fidelity for, 95 % paired bootstrap interval ({n_boot} "
             f"resamples of problems, seed {seed}); p: two-sided paired sign-flip permutation "
             "test on the per-problem differences (exact, or Monte-Carlo where stated); p (Holm): "
             "adjusted across the pairs; differing: problems whose fidelity differs."]))
    return tables
