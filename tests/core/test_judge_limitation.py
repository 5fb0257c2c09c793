"""A judge limitation (the judge deliberately cannot judge a sample) is its own outcome: never a
pass, no error class, its own bucket, listed by reason, and pass@k also without those samples
(issue 36)."""

from __future__ import annotations

import json
from math import comb

import pytest

from quantum_codegen_eval import evaluate
from quantum_codegen_eval.benchmarks import sample
from quantum_codegen_eval.judges.base import judge_error, judge_limitation, make_verdict
from quantum_codegen_eval.metrics.passk import pass_at_k
from quantum_codegen_eval.report import render_markdown
from quantum_codegen_eval.verdict import JUDGE_LIMITATIONS, Verdict, with_error_class


class _Judge:
    """Decides from the completion's text alone: ``limit:<reason>`` is a judge limitation,
    ``bug`` a judge error, ``wrong`` a wrong answer, ``right`` a pass."""

    benchmark = "sample"

    def jobs(self, problem, completion):
        pid = problem.task_id
        word = completion.split("'")[1]
        if word.startswith("limit:"):
            return judge_limitation(self, pid, word.split(":")[1], f"past the judge's {word}",
                                    tests_total=1, seen=word)
        if word == "bug":
            return judge_error(self, pid, "the judge broke")
        return make_verdict(self, pid, "AC" if word == "right" else "WA", word, tests_total=1,
                            tests_passed=int(word == "right"))

    def decide(self, problem, completion, results):  # pragma: no cover - never reached
        raise AssertionError


def _code(word: str, i: int) -> str:
    return f"x = '{word}'  # {i}"  # each sample its own program (judged once per text)


@pytest.fixture(scope="module")
def report():
    a, b, c = sorted(sample.problems("qiskit"))[:3]
    predictions = {
        a: [_code(w, i) for i, w in enumerate(["right", "limit:oracle_rounds", "wrong"])],
        b: [_code(w, i) for i, w in enumerate(["bug", "right", "right"])],
        c: [_code(w, i) for i, w in enumerate(["limit:code_size", "limit:code_size", "wrong"])],
    }
    rep = evaluate(predictions, "sample", "qiskit", judge=_Judge(), k=(1, 2))
    return rep, (a, b, c)


def test_the_verdict_is_a_judge_error_with_its_reason_and_no_class():
    v = with_error_class(judge_limitation(_Judge(), "P", "transport", "cannot carry it"))
    assert v.judge_error and v.judge_limitation == "transport" and v.error_class is None
    assert v.status == "RE" and not v.passed and v.details["judge_limitation"] == "transport"
    assert not with_error_class(judge_error(_Judge(), "P", "broke")).judge_limitation
    with pytest.raises(ValueError, match="unknown judge limitation"):
        judge_limitation(_Judge(), "P", "whatever", "no such reason")


def test_results_stored_with_the_old_key_still_read():
    old = Verdict.from_dict({"benchmark": "x", "problem_id": "P", "status": "RE",
                             "details": {"judge_error": True, "judge_limit": "rounds"}})
    assert old.judge_limitation == "proxy_rounds"
    # a limit named by a verdict that is no judge error is not a judge limitation
    assert Verdict("x", "P", "WA", details={"judge_limitation": "code_size"}).judge_limitation == ""


def test_the_report_counts_lists_and_buckets_judge_limitations(report):
    rep, (a, b, c) = report
    s = rep.summary
    assert s["judge_limitations"] == {"code_size": 2, "oracle_rounds": 1}
    assert s["judge_limitation_samples"] == {"code_size": [f"{c}#0", f"{c}#1"],
                                             "oracle_rounds": [f"{a}#1"]}
    assert s["judge_limitation_meanings"] == {r: JUDGE_LIMITATIONS[r]
                                              for r in ("code_size", "oracle_rounds")}
    # their own bucket: not judge_error, not a class; the plain judge error stays judge_error
    assert s["errors"] == {"reasoning": 2, "judge_limitation": 3, "judge_error": 1}
    assert s["errors_total"] == 6
    rows = {r["key"]: r for r in rep.per_sample}
    assert rows[f"{a}#1"]["judge_limitation"] == "oracle_rounds"
    assert rows[f"{a}#1"]["error_class"] is None and rows[f"{a}#1"]["judge_error"]
    assert rows[f"{b}#0"]["judge_limitation"] == "" and rows[f"{b}#0"]["judge_error"]
    assert s["flags"] == {a: ["judge limitation (oracle_rounds) in 1 sample(s)"],
                          b: ["judge error in 1 sample(s)"],
                          c: ["judge limitation (code_size) in 2 sample(s)"]}
    by_problem = {r["problem_id"]: r for r in rep.per_problem}
    assert [(by_problem[p]["n"], by_problem[p]["correct"]) for p in (a, b, c)] == \
        [(3, 1), (3, 2), (3, 0)]  # counted as samples (never passes) in the main table


def test_pass_at_k_without_judge_limitations_matches_a_hand_computation(report):
    rep, _ = report
    s = rep.summary
    # with them: n = 3, 3, 3 and correct = 1, 2, 0
    assert s["pass@k"]["all"]["pass@1"] == pytest.approx(float(pass_at_k([3, 3, 3], [1, 2, 0], 1)))
    without = s["pass@k_without_judge_limitations"]["all"]
    # without them: n = 2, 3, 1 and correct = 1, 2, 0 (the judge error stays a sample)
    ns, cs = [2, 3, 1], [1, 2, 0]
    expected = sum(1 - comb(n - c, 1) / comb(n, 1) for n, c in zip(ns, cs, strict=True)) / 3
    assert without["pass@1"] == pytest.approx(expected) == pytest.approx(
        float(pass_at_k(ns, cs, 1)))
    assert without["pass@1"] == pytest.approx((1 / 2 + 2 / 3 + 0) / 3)
    assert without["problems"] == 3
    # one problem has a single sample left: pass@2 is not estimated (as for any n < k)
    assert without["pass@2"] is None and s["pass@k"]["all"]["pass@2"] is not None
    assert without["partial_credit"] == pytest.approx((1 / 2 + 2 / 3 + 0) / 3)
    assert json.loads(rep.to_json())["summary"]["pass@k_without_judge_limitations"] == \
        s["pass@k_without_judge_limitations"]


def test_the_markdown_has_the_section_and_the_second_table(report):
    rep, (a, _, c) = report
    md = rep.to_markdown()
    assert "## Judge limitations" in md
    section = md.split("## Judge limitations", 1)[1].split("\n## ", 1)[0]
    assert f"| code_size | 2 | {JUDGE_LIMITATIONS['code_size']} | {c}#0, {c}#1 |" in section
    assert "| oracle_rounds | 1 |" in section and f"{a}#1" in section
    assert "Without the 3 sample(s) the judge cannot judge" in md
    assert "| judge_limitation | 3 |" in md and "| judge_error | 1 |" in md
    assert md == render_markdown(rep)


def test_no_judge_limitation_no_section_no_table():
    pid = sorted(sample.problems("qiskit"))[0]
    rep = evaluate({pid: [_code("bug", 0), _code("right", 1)]}, "sample", "qiskit", judge=_Judge(),
                   k=(1,))
    assert "judge_limitations" not in rep.summary
    assert "pass@k_without_judge_limitations" not in rep.summary
    assert "## Judge limitations" not in rep.to_markdown()


def test_compare_reads_the_bucket_from_a_report_and_from_a_store(tmp_path):
    from quantum_codegen_eval.compare import compare, load_run

    a, b = sorted(sample.problems("qiskit"))[:2]
    predictions = {a: [_code("right", 0), _code("limit:transport", 1), _code("wrong", 2)],
                   b: [_code("bug", 0), _code("right", 1)]}
    store = tmp_path / "store" / "results.jsonl"
    evaluate(predictions, "sample", "qiskit", judge=_Judge(), k=(1,), store=store).save(
        tmp_path / "report")
    groups = {pid: rec.difficulty_scale for pid, rec in sample.problems("qiskit").items()}
    as_report, as_store = load_run(tmp_path / "report"), load_run(store, "store", groups)
    assert as_report.errors == as_store.errors == {"reasoning": 1, "judge_limitation": 1,
                                                   "judge_error": 1}
    table = compare([as_report, as_store], k=(1,), n_boot=50).tables["errors"]
    col = table.header.index("judge_limitation")
    assert [row[col] for row in table.rows] == [pytest.approx(1 / 3)] * 2
