"""With vs without retrieval (the PennySynth paper's comparison): for every pair of a run
without retrieval and a run with it (``provenance.extra["retrieval"]``, recorded by
``evaluate`` from the predictions' RAG prompts), pass@k per group and overall with the paired
difference, and the shift of the error classes (the paper's Table VI)."""

from __future__ import annotations

from typing import Any

from ..metrics.paired import holm, paired_difference
from ..metrics.passk import pass_at_k_per_problem
from ._runs import Run
from ._tables import Interval, Table


def retrieval_of(run: Run) -> dict[str, Any] | None:
    """The run's retrieval facts, or None for a run generated from plain prompts."""
    extra = run.provenance.extra if run.provenance else {}
    found = extra.get("retrieval")
    return found if isinstance(found, dict) else None


def describe(run: Run) -> str:
    facts = retrieval_of(run)
    if facts is None:
        return "plain prompts"
    if "settings" not in facts:
        return f"retrieval (unreadable settings: {facts.get('error', '?')})"
    s = facts["settings"]
    rate = f", {facts['fallbacks']}/{facts['prompts']} fell back" if facts.get("prompts") else ""
    return (f"{s.get('retriever')} top-{s.get('top_k')} τ={s.get('threshold')} from "
            f"{s.get('corpus')} ({s.get('corpus_entries')} entries{rate})")


def _pairs(runs: list[Run]) -> list[tuple[Run, Run]]:
    plain = [r for r in runs if retrieval_of(r) is None]
    rag = [r for r in runs if retrieval_of(r) is not None]
    return [(p, r) for p in plain for r in rag]


def _values(run: Run, pids: list[str], k: int) -> list[float] | None:
    ns = [run.problems[p].n for p in pids]
    if not pids or min(ns) < k:
        return None
    return [float(x) for x in pass_at_k_per_problem(ns, [run.problems[p].correct for p in pids], k)]


def retrieval_tables(runs: list[Run], ks: tuple[int, ...], groups: list[str], n_boot: int,
                     seed: int) -> list[Table]:
    """The ``retrieval`` and ``error_shift`` tables; none when no pair has one run of each kind."""
    pairs = _pairs(runs)
    if not pairs:
        return []
    cols = [*groups, "all"] if len(groups) > 1 else ["all"]
    rows: list[list[Any]] = []
    for plain, rag in pairs:
        for k in ks:
            found = []
            for g in cols:
                pids = sorted(p for p, c in plain.problems.items()
                              if (g == "all" or c.group == g) and p in rag.problems)
                a, b = _values(rag, pids, k), _values(plain, pids, k)
                if a is None or b is None:
                    continue
                d = paired_difference(a, b, n_boot=n_boot, seed=seed)
                found.append([f"{rag.label} vs {plain.label}", g, k, len(pids),
                              sum(b) / len(b), sum(a) / len(a),
                              Interval(d.difference, d.low, d.high), d.test.p_value])
            adjusted = holm([r[-1] for r in found]) if found else []
            rows += [[*r, p] for r, p in zip(found, adjusted, strict=True)]
    notes = ["With vs without retrieval: pass@k (%) of the run from plain prompts and of the run "
             "from RAG prompts over the same problems of each group, the paired difference (RAG "
             f"minus plain, percentage points) with a 95 % paired bootstrap interval ({n_boot} "
             f"resamples of problems, seed {seed}), p: two-sided paired sign-flip permutation "
             "test over problems; p (Holm): adjusted across the groups of one pair and k.",
             *(f"{r.label}: {describe(r)}" for r in runs)]
    table = Table("retrieval", "With vs without retrieval",
                  ["pair", "group", "k", "problems", "plain", "RAG", "difference", "p", "p (Holm)"],
                  rows, ["text", "text", "text", "text", "pct", "pct", "signed_pct", "p", "p"], notes)
    return [table, _shift_table(pairs)]


def _shift_table(pairs: list[tuple[Run, Run]]) -> Table:
    rows = []
    for plain, rag in pairs:
        classes = sorted(set(plain.errors) | set(rag.errors))
        for c in classes:
            a = plain.errors.get(c, 0) / plain.errors_total if plain.errors_total else None
            b = rag.errors.get(c, 0) / rag.errors_total if rag.errors_total else None
            rows.append([f"{rag.label} vs {plain.label}", c, plain.errors.get(c, 0), a,
                         rag.errors.get(c, 0), b, None if a is None or b is None else b - a])
    notes = ["Error-class shift: each run's failed samples per error class (count and share of "
             "its failed samples, the package's one mapping verdict.classify_error), and the "
             "change of the share from plain to RAG prompts in percentage points."]
    return Table("error_shift", "Error-class shift with retrieval",
                 ["pair", "error class", "plain failed", "plain share", "RAG failed", "RAG share",
                  "shift"], rows, ["text", "text", "text", "pct", "text", "pct", "signed_pct"], notes)
