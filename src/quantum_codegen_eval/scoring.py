"""Per-sample code metrics: CodeBLEU and ROUGE-L against the benchmark's reference, and the
hallucinated-API check (PennyLane code). ``evaluate`` calls :func:`score`; the report renders
what it returns.

The code a metric sees is the benchmark's candidate code (its judge's own assembly where it has
one, else the code its extraction rule takes from the completion), so the metrics and the judge
read the same program.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .predictions import Sample

#: the metrics read at most this many characters of candidate code (the metrics' own cap),
#: extracted from at most twice as many of the completion (a 30 MB completion took minutes and
#: gigabytes); such a sample is still scored, marked ``metrics_truncated`` /
#: ``metrics_truncated_at``, and counted as ``truncated`` in the metric's summary
MAX_METRIC_CHARS = 200_000
#: a sample's completion is kept in the report (``qce view`` shows it) up to this many
#: characters; a longer one is cut there and marked ``completion_truncated``
MAX_REPORT_COMPLETION = 200_000

CODEBLEU_KEYS = ("codebleu", "ngram_match", "weighted_ngram_match", "syntax_match",
                 "dataflow_match")


@dataclass
class Scores:
    """What :func:`score` computed. ``per_sample`` maps a sample key to its metric values
    (``codebleu``, ``rouge_l_f``, ``hallucinated``, ``wrong_version_api``)."""

    per_sample: dict[str, dict[str, Any]] = field(default_factory=dict)
    codebleu: dict[str, Any] | None = None
    rouge_l: dict[str, Any] | None = None
    hallucination: dict[str, Any] | None = None
    #: what the similarity metrics compared against: reference kind -> pairs
    reference_kinds: dict[str, int] = field(default_factory=dict)
    signatures: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"per_sample": self.per_sample, "codebleu": self.codebleu, "rouge_l": self.rouge_l,
                "hallucination": self.hallucination, "reference_kinds": self.reference_kinds,
                "signatures": self.signatures}


def candidate_codes(bench: Any, samples: Iterable[Sample], problems: dict[str, Any]
                    ) -> dict[str, str | None]:
    """Sample key -> the program text the metrics compare (None for unusable predictions)."""
    out: dict[str, str | None] = {}
    for s in samples:
        if s.format_error or s.problem_id not in problems:
            out[s.key] = None
            continue
        try:  # extraction parses the code: bounded input (a 30 MB completion took 7 GB here)
            out[s.key] = bench.candidate_code(problems[s.problem_id],
                                              s.completion[:2 * MAX_METRIC_CHARS])
        except Exception:  # noqa: BLE001 - an odd completion must not stop the other scores
            out[s.key] = None
    return out


def score(bench: Any, config: str | None, samples: list[Sample], problems: dict[str, Any],
          metrics: Iterable[str]) -> Scores:
    """CodeBLEU / ROUGE-L / hallucination, as far as ``metrics`` asks, for every usable sample."""
    metrics = set(metrics)
    out = Scores(per_sample={s.key: {} for s in samples})
    codes = candidate_codes(bench, samples, problems)
    lang = bench.language(config)
    pairs = []
    for s in samples:
        code = codes[s.key]
        if not code:
            continue
        if len(code) > MAX_METRIC_CHARS or len(s.completion) > 2 * MAX_METRIC_CHARS:
            code = codes[s.key] = code[:MAX_METRIC_CHARS]
            out.per_sample[s.key]["metrics_truncated"] = True
            out.per_sample[s.key]["metrics_truncated_at"] = MAX_METRIC_CHARS
        record = problems[s.problem_id]
        ref = bench.reference(record)
        if ref:
            pairs.append((s.key, ref, code))
            kind = bench.reference_kind(record)
            out.reference_kinds[kind] = out.reference_kinds.get(kind, 0) + 1
    refs, cands = [r for _, r, _ in pairs], [c for _, _, c in pairs]
    truncated = sum("metrics_truncated" in out.per_sample[key] for key, _, _ in pairs)
    if pairs and "codebleu" in metrics:
        from .metrics.codebleu import codebleu

        try:
            cb = codebleu(references=refs, predictions=cands, variant="quantum", lang=lang)
        except Exception as exc:  # noqa: BLE001 - a metric bug must not lose the verdicts
            out.codebleu = {"error": f"{type(exc).__name__}: {exc}"[:300], "pairs": len(pairs)}
        else:
            out.codebleu = {key: cb[key] for key in CODEBLEU_KEYS} | {
                "pairs": len(pairs), "truncated": truncated}
            out.signatures["codebleu"] = cb["signature"]
            for (key, _, _), row in zip(pairs, cb["per_sample"], strict=True):
                out.per_sample[key]["codebleu"] = row.get("codebleu")
    if pairs and "rouge_l" in metrics:
        from .metrics.rouge import rouge_l

        try:
            rl = rouge_l(references=refs, predictions=cands, tokenizer="code")
        except Exception as exc:  # noqa: BLE001 - a metric bug must not lose the verdicts
            out.rouge_l = {"error": f"{type(exc).__name__}: {exc}"[:300], "pairs": len(pairs)}
        else:
            out.rouge_l = {key: rl[key] for key in ("precision", "recall", "f")} | {
                "pairs": len(pairs), "truncated": truncated}
            out.signatures["rouge_l"] = rl["signature"]
            for (key, _, _), row in zip(pairs, rl["per_sample"], strict=True):
                out.per_sample[key]["rouge_l_f"] = row.get("f")
    if lang == "pennylane" and "hallucination" in metrics:
        out.hallucination = _hallucinations(samples, codes, problems, out.per_sample)
    if not {"codebleu", "rouge_l"} & metrics:
        out.reference_kinds = {}
    return out


def _hallucinations(samples: list[Sample], codes: dict[str, str | None], problems: dict[str, Any],
                    per_sample: dict[str, dict[str, Any]]) -> dict[str, Any]:
    from .metrics.hallucination import CodeParseError, find_hallucinations

    checked = with_any = with_stale = unparsable = 0
    names: Counter[str] = Counter()
    for s in samples:
        code = codes[s.key]
        if not code:
            continue
        version = getattr(problems[s.problem_id], "pennylane_version", None)
        try:
            findings = find_hallucinations(code, pennylane_version=version)
        except (CodeParseError, RecursionError, MemoryError, UnicodeError):
            unparsable += 1
            per_sample[s.key]["hallucinated"] = None
            continue
        bad = [f.name for f in findings if f.status == "hallucinated"]
        stale = [f.name for f in findings if f.status in ("removed", "too_new")]
        checked += 1
        with_any += bool(bad)
        with_stale += bool(stale)
        names.update(bad)
        per_sample[s.key]["hallucinated"] = bad
        per_sample[s.key]["wrong_version_api"] = stale
    return {"rate": with_any / checked if checked else None, "samples_checked": checked,
            "samples_with_hallucination": with_any, "samples_with_wrong_version_api": with_stale,
            "unparsable": unparsable, "most_common": names.most_common(10)}


# ---------------------------------------------------------------- counting

def _flags_of(record: Any, verdicts: list[Any]) -> list[str]:
    """Why a counted problem's numbers need a caveat: a known weak upstream check, a check that
    does not run over the program's data alone, a judge limitation (named by its reason) or
    another judge error."""
    extra = getattr(record, "extra", None)
    extra = extra if isinstance(extra, dict) else {}
    flags = []
    weak = getattr(record, "weak_check", None) or extra.get("weak_check")
    if weak:
        flags.append(f"weak check: {weak.rstrip('.')}")  # the flags are joined with "; "
    unrunnable = _unrunnable(record)
    if unrunnable:
        flags.append(f"cannot pass in this environment: {unrunnable}")
    trusts = {getattr(record, "check_trust", None) or extra.get("check_trust")}
    trusts |= {v.details.get("check_trust") for v in verdicts}
    flags += [f"check trust: {t}" for t in sorted(t for t in trusts if t and t != "data")]
    limits = Counter(v.judge_limitation for v in verdicts if v.judge_limitation)
    flags += [f"judge limitation ({reason}) in {n} sample(s)" for reason, n in sorted(limits.items())]
    errors = sum(v.judge_error and not v.judge_limitation for v in verdicts)
    if errors:
        flags.append(f"judge error in {errors} sample(s)")
    return flags


def _unrunnable(record: Any) -> str:
    """Why the benchmark declares ``record`` unable to pass here (its reference fails: missing
    credentials, network, a library), or ``""``."""
    extra = getattr(record, "extra", None)
    extra = extra if isinstance(extra, dict) else {}
    return str(getattr(record, "unrunnable", None) or extra.get("unrunnable") or "")


#: the bootstrap of the report's pass@k intervals (``metrics.passk.pass_at_k_ci``)
CI = {"level": 0.95, "n_boot": 1000, "seed": 0}


def _pass_at_k_table(per_problem: list[dict[str, Any]], ks: tuple[int, ...], key: str = "group",
                     ci: dict[str, Any] | None = None) -> dict[str, Any]:
    """pass@k and partial credit per value of ``key`` (and "all"); with ``ci`` (a dict), the
    bootstrap interval of every estimated pass@k goes into ``ci[name][f"pass@{k}"]``."""
    from .metrics.passk import pass_at_k, pass_at_k_ci

    groups: dict[str, list[dict[str, Any]]] = {}
    for row in per_problem:
        groups.setdefault(row[key], []).append(row)
    table: dict[str, Any] = {}
    for name, rows in [("all", per_problem)] + sorted(groups.items()):
        if name == "all" or len(groups) > 1:
            entry: dict[str, Any] = {"problems": len(rows)}
            ns = [r["n"] for r in rows]
            cs = [r["correct"] for r in rows]
            for k in ks:
                # missing (None) when some problem has fewer than k samples: never estimated
                entry[f"pass@{k}"] = float(pass_at_k(ns, cs, k)) if rows and min(ns) >= k else None
                if ci is not None and entry[f"pass@{k}"] is not None:
                    interval = pass_at_k_ci(ns, cs, k, **CI)
                    ci.setdefault(name, {})[f"pass@{k}"] = [interval.low, interval.high]
            credit = [r["partial_credit"] for r in rows if r["partial_credit"] is not None]
            entry["partial_credit"] = sum(credit) / len(credit) if credit else None
            table[name] = entry
    return table


def _pass_at_k_signatures(ks: tuple[int, ...]) -> dict[str, str]:
    """The signatures of the estimator and of its interval, as the metric functions give them."""
    from .metrics.passk import pass_at_k, pass_at_k_ci

    out = {}
    for k in ks:
        out[f"pass@{k}"] = pass_at_k([k], [0], k, per_problem=True).signature
        out[f"pass@{k} interval"] = pass_at_k_ci([k], [0], k, **CI).signature
    return out


def _without_judge_limitations(per_problem: list[dict[str, Any]], by_problem: dict[str, list[Any]],
                               ) -> list[dict[str, Any]]:
    """The per-problem rows (n, correct, partial credit) with the judge-limited samples removed:
    a problem left with fewer than k samples is not estimated (``_pass_at_k_table``); one left
    with none has no partial credit."""
    rows = []
    for r in per_problem:
        kept = [v for v in by_problem[r["problem_id"]] if not v.judge_limitation]
        rows.append({**r, "n": len(kept), "correct": sum(v.passed and not v.judge_error
                                                         for v in kept),
                     "partial_credit": (sum(v.partial_credit for v in kept) / len(kept)
                                        if kept else None)})
    return rows


def _short_of_k(per_problem: list[dict[str, Any]], ks: tuple[int, ...]) -> dict[str, list[str]]:
    """k -> the problems with fewer than k samples (no pass@k for them nor their groups)."""
    return {str(k): short for k in ks
            if (short := [r["problem_id"] for r in per_problem if r["n"] < k])}


#: how the report's fidelity figures are defined (docs/metrics/fidelity.md)
FIDELITY_METHOD = (
    "per sample: the judge's mean fidelity over all tests (state |<psi|phi>|^2, process "
    "|Tr(U^dagger V)|^2/d^2, 1 for AC, 0 for a test not simulated); per problem: the mean over its "
    "samples that have one; per group: the mean over problems, percentile bootstrap interval "
    f"over problems (level {CI['level']}, {CI['n_boot']} resamples, seed {CI['seed']})")


def _fidelity_fields(v: Any) -> dict[str, Any]:
    """A sample's partial credit by fidelity, where its judge gives one (QCoder)."""
    if "fidelity_source" not in v.details:
        return {}
    return {"fidelity": v.details.get("mean_fidelity"),
            "fidelity_source": v.details["fidelity_source"]}


def _problem_fidelity(verdicts: list[Any]) -> dict[str, Any]:
    """The mean fidelity of a problem's samples that have one (judge errors never count)."""
    values = [float(f) for v in verdicts if not v.judge_error
              and isinstance(f := v.details.get("mean_fidelity"), (int, float))]
    return {"fidelity": sum(values) / len(values), "fidelity_samples": len(values)} if values else {}


def _fidelity_table(per_problem: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """Mean fidelity over problems per value of ``key`` and "all", with the bootstrap interval."""
    from .metrics.fidelity import mean_fidelity

    rows = [r for r in per_problem if "fidelity" in r]
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(str(r.get(key)), []).append(r)
    table: dict[str, Any] = {}
    for name, rs in [("all", rows)] + sorted(groups.items()):
        if name == "all" or len(groups) > 1:
            m = mean_fidelity([[r["fidelity"]] for r in rs], **CI)
            table[name] = {"problems": m.problems, "samples": sum(r["fidelity_samples"] for r in rs),
                           "fidelity": m.value, "ci": [m.low, m.high]}
    return table


def report_completion(text: str) -> dict[str, Any]:
    """The sample's completion as the report keeps it (bounded)."""
    if len(text) <= MAX_REPORT_COMPLETION:
        return {"completion": text}
    return {"completion": text[:MAX_REPORT_COMPLETION], "completion_truncated": True}


def summarise(*, bench: Any, config: str | None, samples: list[Sample], verdicts: dict[str, Any],
              problems: dict[str, Any], scores: Scores, k: tuple[int, ...],
              metrics: tuple[str, ...], seconds: float):
    """The report of one run: per-sample rows, per-problem counts and the summary tables.

    Every sample is counted with its own verdict; samples naming no known problem (unknown ids,
    unreadable lines) are listed but not counted in pass@k.
    """
    from .report import Report
    from .verdict import ERROR_BUCKETS, JUDGE_LIMITATIONS, STATUSES, error_bucket

    per_sample: list[dict[str, Any]] = []
    by_problem: dict[str, list[Any]] = {}
    for s in samples:
        v = verdicts[s.key]
        known = s.problem_id in problems and not s.unreadable
        per_sample.append({"key": s.key, "problem_id": s.problem_id, "sample": s.index,
                           "status": v.status, "error_class": v.error_class,
                           "tests_passed": v.tests_passed, "tests_total": v.tests_total,
                           "partial_credit": v.partial_credit, "message": v.message,
                           "known_problem": known, "judge_error": v.judge_error,
                           "judge_limitation": v.judge_limitation,
                           **_fidelity_fields(v),
                           **scores.per_sample.get(s.key, {}), "verdict": v.to_dict(),
                           **report_completion(s.completion)})
        if known:
            by_problem.setdefault(s.problem_id, []).append(v)

    per_problem = []
    for pid, vs in by_problem.items():
        row = {"problem_id": pid, "group": bench.group(problems[pid]), "n": len(vs),
               "correct": sum(v.passed and not v.judge_error for v in vs),  # an error never passes
               "partial_credit": sum(v.partial_credit for v in vs) / len(vs),
               "statuses": {st: c for st in STATUSES if (c := sum(v.status == st for v in vs))}}
        if bench.subgroup is not None:
            row[bench.subgroup_by] = bench.subgroup(problems[pid])
        flags = _flags_of(problems[pid], vs)
        if flags:
            row["flags"] = flags
        row.update(_problem_fidelity(vs))
        per_problem.append(row)
    per_problem.sort(key=lambda r: r["problem_id"])

    summary: dict[str, Any] = {
        "benchmark": bench.name, "config": config, "group_by": bench.group_by,
        "predictions": len(samples), "problems_with_predictions": len(per_problem),
        "problems_without_predictions": sorted(set(problems) - set(by_problem)),
        "unknown_ids": [s.key for s in samples if not s.unreadable and s.problem_id not in problems],
        "unreadable": [s.source or s.key for s in samples if s.unreadable],
        "duplicates": [s.key for s in samples if s.duplicate],
        "flags": {r["problem_id"]: r["flags"] for r in per_problem if "flags" in r},
        "seconds": round(seconds, 2),
        "statuses": {st: c for st in STATUSES if (c := sum(r["status"] == st for r in per_sample))},
    }
    limited: dict[str, list[str]] = {}
    for r in per_sample:
        if r["judge_limitation"]:
            limited.setdefault(r["judge_limitation"], []).append(r["key"])
    if limited:  # samples the judge deliberately cannot judge: listed by reason
        summary["judge_limitations"] = {reason: len(keys) for reason, keys in sorted(limited.items())}
        summary["judge_limitation_samples"] = dict(sorted(limited.items()))
        summary["judge_limitation_meanings"] = {  # for the report, which reads the dict only
            reason: JUDGE_LIMITATIONS.get(reason, "see the benchmark documentation")
            for reason in sorted(limited)}
    signatures = dict(scores.signatures)
    if "pass@k" in metrics or "partial_credit" in metrics:
        ci: dict[str, Any] = {}
        summary["pass@k"] = _pass_at_k_table(per_problem, k, ci=ci)
        summary["pass@k_ci"] = ci
        summary["pass@k_ci_method"] = {"method": "percentile bootstrap over problems", **CI}
        if bench.subgroup is not None and per_problem:
            ci_by: dict[str, Any] = {}
            summary["pass@k_by"] = {bench.subgroup_by: _pass_at_k_table(
                per_problem, k, key=bench.subgroup_by, ci=ci_by)}
            summary["pass@k_by_ci"] = {bench.subgroup_by: ci_by}
        if short := _short_of_k(per_problem, k):
            summary["k_above_samples"] = short
        signatures = _pass_at_k_signatures(k) | signatures
        unrunnable = {r["problem_id"] for r in per_problem if _unrunnable(problems[r["problem_id"]])}
        if unrunnable:  # also without the problems declared unable to pass here
            summary["unrunnable"] = sorted(unrunnable)
            summary["pass@k_runnable"] = _pass_at_k_table(
                [r for r in per_problem if r["problem_id"] not in unrunnable], k)
        if limited:
            # also without the samples the judge deliberately cannot judge
            summary["pass@k_without_judge_limitations"] = _pass_at_k_table(
                _without_judge_limitations(per_problem, by_problem), k)
    if "errors" in metrics:
        failed = [r for r in per_sample if r["status"] != "AC" or r["judge_error"]]
        counts = Counter(error_bucket(r["error_class"], r["judge_error"], r["judge_limitation"])
                         for r in failed)
        summary["errors"] = {c: counts[c] for c in ERROR_BUCKETS if counts.get(c)}
        summary["errors_total"] = len(failed)
    if any("fidelity" in r for r in per_problem):
        summary["fidelity"] = _fidelity_table(per_problem, "group")
        if bench.subgroup is not None:
            summary["fidelity_by"] = {bench.subgroup_by: _fidelity_table(per_problem,
                                                                        bench.subgroup_by)}
        summary["fidelity_method"] = FIDELITY_METHOD
    if scores.codebleu is not None:
        summary["codebleu"] = scores.codebleu
    if scores.rouge_l is not None:
        summary["rouge_l"] = scores.rouge_l
    if scores.reference_kinds:
        summary["similarity_reference"] = scores.reference_kinds
    if scores.hallucination is not None:
        summary["hallucination"] = scores.hallucination
    return Report(benchmark=bench.name, config=config, summary=summary, per_problem=per_problem,
                  per_sample=per_sample, signatures=signatures)
