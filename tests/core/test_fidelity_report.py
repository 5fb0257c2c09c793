"""Partial credit by fidelity in the report (per sample, per problem, per group with its bootstrap
interval) and in compare (the fidelity table and the paired test, checked against scipy)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

from quantum_codegen_eval.benchmarks import sample
from quantum_codegen_eval.benchmarks.base import get
from quantum_codegen_eval.compare import ProblemCounts, Run, compare, load_run
from quantum_codegen_eval.metrics.fidelity import mean_fidelity
from quantum_codegen_eval.metrics.passk import bootstrap_mean_interval
from quantum_codegen_eval.predictions import read_predictions
from quantum_codegen_eval.scoring import CI, Scores, summarise
from quantum_codegen_eval.verdict import Verdict, with_error_class


def _verdict(pid, status, fid, source="simulated", **details):
    return with_error_class(Verdict("sample", pid, status, details={
        "mean_fidelity": fid, "fidelity_source": source, **details}))


@pytest.fixture(scope="module")
def report():
    bench = get("sample")
    problems = sample.problems("qiskit")
    ids = sorted(problems)[:4]
    samples = read_predictions({pid: ["x = 1", "x = 2"] for pid in ids})
    fids = {ids[0]: [(1.0, "AC"), (0.5, "WA")], ids[1]: [(0.0, "UGE"), (0.25, "WA")],
            ids[2]: [(None, "AC"), (1.0, "AC")], ids[3]: [(0.9, "WA"), (0.9, "WA")]}
    verdicts = {}
    for s in samples:
        fid, status = fids[s.problem_id][s.index]
        verdicts[s.key] = _verdict(s.problem_id, status, fid,
                                   "not simulated" if status == "UGE" else "simulated")
    verdicts[f"{ids[3]}#1"] = _verdict(ids[3], "RE", None, "judge error", judge_error=True)
    rep = summarise(bench=bench, config="qiskit", samples=samples, verdicts=verdicts,
                    problems={p: problems[p] for p in ids}, scores=Scores(), k=(1,),
                    metrics=("pass@k",), seconds=0.0)
    return rep, ids


def test_per_sample_and_per_problem(report):
    rep, ids = report
    first = rep.per_sample[0]
    assert first["fidelity"] == 1.0 and first["fidelity_source"] == "simulated"
    assert [r["fidelity_source"] for r in rep.per_sample][2] == "not simulated"
    rows = {r["problem_id"]: r for r in rep.per_problem}
    assert rows[ids[0]]["fidelity"] == 0.75 and rows[ids[0]]["fidelity_samples"] == 2
    assert rows[ids[1]]["fidelity"] == 0.125
    assert rows[ids[2]]["fidelity"] == 1.0 and rows[ids[2]]["fidelity_samples"] == 1  # None left out
    assert rows[ids[3]]["fidelity"] == 0.9 and rows[ids[3]]["fidelity_samples"] == 1  # judge error


def test_summary_mean_and_interval(report):
    rep, ids = report
    per_problem = [0.75, 0.125, 1.0, 0.9]
    entry = rep.summary["fidelity"]["all"]
    assert entry["fidelity"] == pytest.approx(np.mean(per_problem))
    assert entry["problems"] == 4 and entry["samples"] == 6
    # the one bootstrap of the package (pass@k's), replayed by hand
    rng = np.random.default_rng(CI["seed"])
    means = np.asarray(per_problem)[rng.integers(0, 4, size=(CI["n_boot"], 4))].mean(axis=1)
    assert entry["ci"] == pytest.approx(list(np.quantile(means, [0.025, 0.975])))
    assert entry["ci"] == pytest.approx(list(bootstrap_mean_interval(per_problem, **CI)))
    groups = {k for k in rep.summary["fidelity"] if k != "all"}
    assert groups == {r["group"] for r in rep.per_problem} or len(groups) == 0
    assert "bootstrap" in rep.summary["fidelity_method"]
    md = rep.to_markdown()
    assert "## Mean fidelity (%)" in md and "69.4 [" in md
    json.loads(rep.to_json())


def test_no_fidelity_no_section():
    bench = get("sample")
    problems = sample.problems("qiskit")
    samples = read_predictions({pid: ["x = 1"] for pid in sorted(problems)[:2]})
    verdicts = {s.key: with_error_class(Verdict("sample", s.problem_id, "WA")) for s in samples}
    rep = summarise(bench=bench, config="qiskit", samples=samples, verdicts=verdicts,
                    problems=problems, scores=Scores(), k=(1,), metrics=("pass@k",), seconds=0.0)
    assert "fidelity" not in rep.summary and "fidelity" not in rep.per_sample[0]
    assert "Mean fidelity" not in rep.to_markdown()


def test_mean_fidelity_refuses_bad_values():
    with pytest.raises(ValueError, match="in \\[0, 1\\]"):
        mean_fidelity([[1.2]])
    with pytest.raises(ValueError, match="at least one"):
        mean_fidelity([[0.5], []])


def _run(label, fids, group="all"):
    probs = {p: ProblemCounts(p, group, 1, int(f == 1.0), {"AC" if f == 1.0 else "WA": 1})
             for p, f in fids.items()}
    return Run(label, label, "report", "qcoder", "problems", "contest", probs, {}, 0,
               fidelity=dict(fids))


def test_compare_fidelity_table_and_paired_test_match_scipy():
    rng = np.random.default_rng(3)
    a = rng.uniform(0.6, 1.0, 12)
    b = np.clip(a - rng.normal(0.08, 0.1, 12), 0, 1)
    result = compare([_run("A", {f"p{i:02d}": x for i, x in enumerate(a)}),
                      _run("B", {f"p{i:02d}": x for i, x in enumerate(b)})],
                     k=(1,), n_boot=500, allow_mismatch=True)
    table = result.tables["fidelity"]
    assert [row[0] for row in table.rows] == ["A", "B"]
    assert table.rows[0][1].value == pytest.approx(a.mean())
    assert [table.rows[1][1].low, table.rows[1][1].high] == pytest.approx(
        list(bootstrap_mean_interval(b, n_boot=500, seed=0)))
    (row,) = result.tables["paired_fidelity"].rows
    assert row[1] == 12 and row[2].value == pytest.approx((a - b).mean()) and row[6] == "exact"
    want = stats.permutation_test((a, b), lambda x, y: np.mean(x - y), vectorized=False,
                                  permutation_type="samples", n_resamples=np.inf,
                                  alternative="two-sided").pvalue
    assert row[3] == pytest.approx(want)
    assert row[4] == row[3]  # one pair: Holm changes nothing
    assert "Paired comparisons of mean fidelity" in result.to_markdown()


def test_compare_without_fidelity_has_no_table():
    runs = [_run("A", {}), _run("B", {})]
    for r in runs:
        r.problems = {"p0": ProblemCounts("p0", "all", 1, 1, {"AC": 1})}
    result = compare(runs, k=(1,), n_boot=100, allow_mismatch=True)
    assert "fidelity" not in result.tables and "paired_fidelity" not in result.tables


def test_runs_read_fidelity_from_reports_and_stores(report, tmp_path):
    rep, ids = report
    rep.save(tmp_path / "run")
    run = load_run(tmp_path / "run")
    assert run.fidelity == {r["problem_id"]: r["fidelity"] for r in rep.per_problem}
    store = tmp_path / "store" / "results.jsonl"
    store.parent.mkdir()
    store.write_text("".join(json.dumps({"problem_id": r["problem_id"], "benchmark": "sample",
                                         "verdict": r["verdict"]}) + "\n"
                             for r in rep.per_sample), encoding="utf-8")
    assert load_run(store).fidelity == pytest.approx(run.fidelity)
