"""Counting that a paper can print: every sample with its own verdict, one error-class mapping,
unreadable lines apart from unknown ids, caveats flagged."""

from __future__ import annotations

import dataclasses
import json

import pytest
from sample_answers import BELL, RIGHT, WRONG

from quantum_codegen_eval import evaluate
from quantum_codegen_eval.benchmarks import sample
from quantum_codegen_eval.benchmarks.base import get
from quantum_codegen_eval.benchmarks.qiskit_humaneval import Task
from quantum_codegen_eval.execution import Sandbox
from quantum_codegen_eval.predictions import read_predictions
from quantum_codegen_eval.scoring import Scores, summarise
from quantum_codegen_eval.verdict import (
    ERROR_CLASSES,
    STATUSES,
    Verdict,
    classify_error,
    with_error_class,
)


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(workers=2) as sb:
        yield sb


@pytest.mark.parametrize("order", [(RIGHT, WRONG), (WRONG, RIGHT)])
def test_a_repeated_sample_is_counted_with_its_own_verdict(sandbox, tmp_path, order):
    rows = [{"id": BELL, "sample": 0, "completion": c} for c in order]
    store = tmp_path / "results.jsonl"
    report = evaluate(rows, "sample", "qiskit", k=(1,), sandbox=sandbox, store=store)
    by_key = {r["key"]: r for r in report.per_sample}
    assert set(by_key) == {f"{BELL}#0", f"{BELL}#0+dup1"}
    first = "AC" if order[0] is RIGHT else "WA"
    assert by_key[f"{BELL}#0"]["status"] == first
    assert by_key[f"{BELL}#0+dup1"]["status"] == "FORMAT"
    assert "duplicate prediction" in by_key[f"{BELL}#0+dup1"]["message"]
    row = report.per_problem[0]
    assert (row["n"], row["correct"]) == (2, int(first == "AC"))
    assert report.summary["pass@k"]["all"]["pass@1"] == pytest.approx(0.5 if first == "AC" else 0)
    assert report.summary["duplicates"] == [f"{BELL}#0+dup1"]
    stored = [json.loads(line)["key"] for line in store.read_text().splitlines()]
    assert sorted(stored) == sorted(by_key)
    again = evaluate(rows, "sample", "qiskit", k=(1,), store=store, resume=True)
    assert [r["status"] for r in again.per_sample] == [r["status"] for r in report.per_sample]


def test_an_unreadable_line_is_not_an_unknown_id(sandbox, tmp_path):
    path = tmp_path / "preds.jsonl"
    path.write_text(json.dumps({"id": BELL, "completion": RIGHT}) + "\n{not json\n"
                    + json.dumps({"id": "sample/nope", "completion": "x = 1"}) + "\n")
    report = evaluate(str(path), "sample", "qiskit", k=(1,), sandbox=sandbox)
    assert report.summary["unreadable"] == ["preds.jsonl line 2"]
    assert report.summary["unknown_ids"] == ["sample/nope#0"]
    assert report.summary["pass@k"]["all"]["pass@1"] == 1.0
    md = report.to_markdown()
    assert "1 predictions could not be read" in md and "preds.jsonl line 2" in md


def test_classes_follow_one_mapping():
    for status in STATUSES:
        klass = classify_error(status)
        assert klass is None if status == "AC" else klass in ERROR_CLASSES
    assert classify_error("MLE") == classify_error("TLE") == "timeout"
    assert classify_error("RE", "RuntimeError") == "reasoning"  # a program's own raise
    assert classify_error("RE", "builtins.ZeroDivisionError") == "reasoning"
    assert classify_error("RE", "SyntaxError") == "formatting"
    assert classify_error("RE", "ModuleNotFoundError") == "hallucination"
    assert classify_error("RE", "qiskit.circuit.exceptions.CircuitError") == "api_misuse"
    assert classify_error("RE", "ValueError", hallucinated=True) == "hallucination"
    assert classify_error("RE", "ValueError") == "reasoning"
    assert classify_error("RE", "ValueError", raised_in_framework=True) == "api_misuse"
    assert classify_error("RE", "SyntaxError", raised_in_framework=True) == "formatting"
    with pytest.raises(ValueError):
        classify_error("OK")


def test_evaluate_applies_the_mapping_to_judge_verdicts():
    v = Verdict("qcoder", "P", "RE", error_class="api_misuse",
                details={"exception_type": "RuntimeError"})
    assert with_error_class(v).error_class == "reasoning"
    assert with_error_class(Verdict("qhack", "P", "MLE")).error_class == "timeout"
    assert with_error_class(Verdict("x", "P", "UME", error_class="hallucination")).error_class \
        == "api_misuse"
    # a judge's finer evidence is in details; a class it sets itself is ignored
    assert with_error_class(Verdict("x", "P", "RE", error_class="hallucination")).error_class \
        == "reasoning"
    assert with_error_class(Verdict("x", "P", "RE", details={"hallucinated": True})).error_class \
        == "hallucination"
    assert with_error_class(Verdict("x", "P", "RE", details={"broke_contract": True})
                            ).error_class == "api_misuse"
    assert with_error_class(Verdict("x", "P", "RE")).error_class == "reasoning"
    broken = Verdict("x", "P", "RE", error_class="reasoning", details={"judge_error": True})
    assert with_error_class(broken).error_class is None


def test_sample_verdicts_carry_mapped_classes(sandbox):
    report = evaluate({BELL: [RIGHT, WRONG, "```python\ndef bell_circuit(:\n```",
                              "```python\ndef bell_circuit():\n    raise RuntimeError('no')\n```"]},
                      "sample", "qiskit", k=(1,), sandbox=sandbox)
    got = [(r["status"], r["error_class"]) for r in report.per_sample]
    assert got == [("AC", None), ("WA", "reasoning"), ("RE", "formatting"), ("RE", "reasoning")]


@dataclasses.dataclass(frozen=True)
class _Flagged(Task):
    weak_check: str = ""
    check_trust: str = "data"


def test_caveats_are_flagged_in_json_and_markdown():
    bench = get("sample")
    base = sample.problems("qiskit")
    ids = sorted(base)[:4]
    problems = {pid: _Flagged(**dataclasses.asdict(base[pid])) for pid in ids}
    problems[ids[0]] = dataclasses.replace(problems[ids[0]], weak_check="[] passes the public test.",
                                           check_trust="circuit")
    problems[ids[1]] = dataclasses.replace(problems[ids[1]], check_trust="in-process")
    samples = read_predictions({pid: ["x = 1"] for pid in ids})
    verdicts = {s.key: Verdict("sample", s.problem_id, "WA") for s in samples}
    verdicts[f"{ids[2]}#0"] = Verdict("sample", ids[2], "RE", details={"judge_error": True})
    verdicts[f"{ids[3]}#0"] = Verdict("sample", ids[3], "AC", details={"check_trust": "program"})
    verdicts = {key: with_error_class(v) for key, v in verdicts.items()}  # as evaluate() does
    report = summarise(bench=bench, config="qiskit", samples=samples, verdicts=verdicts,
                       problems=problems, scores=Scores(), k=(1,), metrics=("pass@k", "errors"),
                       seconds=0.0)
    flags = json.loads(report.to_json())["summary"]["flags"]
    assert flags == {ids[0]: ["weak check: [] passes the public test", "check trust: circuit"],
                     ids[1]: ["check trust: in-process"],
                     ids[2]: ["judge error in 1 sample(s)"],
                     ids[3]: ["check trust: program"]}
    assert report.summary["errors"] == {"reasoning": 2, "judge_error": 1}
    md = report.to_markdown()
    assert "## Caveats" in md and f"`{ids[0]}`: weak check" in md
    assert "public test; check trust: circuit" in md  # one sentence per flag, no ".;"


class _BrokenJudge:
    """A judge with a bug in planning: the run goes on, the sample is a flagged judge error."""

    benchmark = "sample"

    def jobs(self, problem, completion):
        raise RuntimeError("bug in the judge")

    def decide(self, problem, completion, results):  # pragma: no cover - never reached
        raise AssertionError


def test_a_judge_bug_is_a_flagged_judge_error_not_a_crash():
    report = evaluate({BELL: ["x = 1"], "sample/qk_ghz_circuit": [""]}, "sample", "qiskit",
                      judge=_BrokenJudge(), k=(1,))
    by_key = {r["key"]: r for r in report.per_sample}
    row = by_key[f"{BELL}#0"]
    assert (row["status"], row["error_class"], row["judge_error"]) == ("RE", None, True)
    assert "bug in the judge" in row["message"]
    assert by_key["sample/qk_ghz_circuit#0"]["status"] == "FORMAT"
    assert report.summary["flags"] == {BELL: ["judge error in 1 sample(s)"]}
    assert report.summary["errors"] == {"formatting": 1, "judge_error": 1}
