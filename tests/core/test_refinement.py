"""refine_all: the batch refinement loop over a benchmark, its report, and resuming a killed run.

The answers are the bundled sample's own solutions and wrong bodies (tests/support/
refine_script.py), judged by the real sample judge in the real sandbox.
"""

from __future__ import annotations

import inspect
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import refine_script as script

from quantum_codegen_eval import refinement
from quantum_codegen_eval.evaluate import RUN_KEYWORDS, JudgingOptions, evaluate
from quantum_codegen_eval.refinement import refine_all


def _round_lines(store: Path) -> dict[str, list[str]]:
    return {p.name: p.read_text().splitlines() for p in sorted(store.glob("round-*.jsonl"))}


@pytest.mark.slow  # several seconds of real processes: not in the fast tier
def test_killed_loop_resumes_without_redoing_and_reports_the_curve(tmp_path):
    store, log = tmp_path / "run", tmp_path / "calls.jsonl"
    proc = subprocess.Popen([sys.executable, script.__file__, str(store), str(log)],
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    answers = store / "answers.jsonl"
    deadline = time.monotonic() + 300
    # round 1's answers are stored and its judging (a 4 s program) is under way: kill there
    while not (answers.exists() and '"round-1"' in answers.read_text()):
        assert proc.poll() is None, "the loop ended before round 1"
        assert time.monotonic() < deadline
        time.sleep(0.1)
    time.sleep(0.5)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = _round_lines(store)
    assert [json.loads(line)["rounds"] for line in log.read_text().splitlines()] == [[0], [1]]
    assert len(before["round-0.jsonl"]) == 3 and len(before.get("round-1.jsonl", [])) < 2

    generate = script.ScriptedGenerate(script.PLAN, log)
    report = refine_all(generate, "sample", "qiskit", rounds=script.ROUNDS,
                        problems=script.problems(), store=store, resume=True, workers=1)
    # no round generated twice, no stored verdict judged again (the stores only grew)
    assert [json.loads(line)["rounds"] for line in log.read_text().splitlines()] == [
        [0], [1], [2], [3]]
    assert [{c[0] for c in call} for call in generate.calls] == [
        {"sample/qk_bell_circuit", "sample/qk_basis_state"}, {"sample/qk_basis_state"}]
    after = _round_lines(store)
    for name, lines in before.items():
        assert after[name][:len(lines)] == lines
    assert {name: len(lines) for name, lines in after.items()} == {
        "round-0.jsonl": 3, "round-1.jsonl": 2, "round-2.jsonl": 2, "round-3.jsonl": 1}

    ref = report.refinement
    assert ref["solved_by_round"] == [1, 1, 2, 2]
    assert ref["success_by_round"] == pytest.approx([1 / 3, 1 / 3, 2 / 3, 2 / 3])
    assert ref["pass@k_by_round"]["pass@1"] == pytest.approx([1 / 3, 1 / 3, 2 / 3, 2 / 3])
    assert ref["answers_by_round"] == [3, 2, 2, 1]
    history = {h["problem_id"]: h for h in ref["histories"]}
    assert [x["status"] for x in history["sample/qk_bell_circuit"]["rounds"]] == ["WA", "WA", "AC"]  # check() fails on None: the answer is wrong, not an error
    assert history["sample/qk_bell_circuit"]["first_ac_round"] == 2
    assert history["sample/qk_ghz_circuit"]["first_ac_round"] == 0
    assert history["sample/qk_basis_state"]["first_ac_round"] is None
    assert len(history["sample/qk_basis_state"]["rounds"]) == 4
    hashes = [x["completion_hash"] for x in history["sample/qk_bell_circuit"]["rounds"]]
    assert hashes[0] == hashes[1] != hashes[2]
    # a later prompt carries the earlier answers and the judge's feedback
    later = [r for r in generate.requests if r.round == 3][0]
    assert "attempt 3" in later.prompt and "(WA)" in later.prompt
    # each round keeps its answer, the judge's message and the feedback the next round got
    from quantum_codegen_eval.evaluate import completion_hash

    bell = history["sample/qk_bell_circuit"]["rounds"]
    assert [completion_hash(x["completion"]) for x in bell] == hashes
    asked = [r for r in generate.requests if r.round == 2 and r.problem_id == "sample/qk_bell_circuit"]
    assert "(WA)" in bell[1]["feedback"] and bell[1]["feedback"] in asked[0].prompt
    assert bell[0]["message"] and bell[2]["feedback"] == ""

    # the report is evaluate's report of the final answers, plus the refinement section
    assert report.summary["pass@k"]["all"]["pass@1"] == pytest.approx(2 / 3)
    rows = {r["problem_id"]: r for r in report.per_sample}
    assert rows["sample/qk_bell_circuit"]["status"] == "AC"
    assert rows["sample/qk_bell_circuit"]["first_ac_round"] == 2
    paths = report.save(tmp_path / "report")
    saved = json.loads(paths["json"].read_text())
    assert set(saved) == {*report.to_dict()} and "refinement" in saved
    assert saved["refinement"]["solved_by_round"] == [1, 1, 2, 2]
    md = paths["markdown"].read_text()
    assert "## Refinement" in md and "WA → WA → AC" in md
    assert paths["refinement"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # the finished run resumed again calls nothing and judges nothing
    again = script.ScriptedGenerate(script.PLAN)
    refine_all(again, "sample", "qiskit", rounds=script.ROUNDS, problems=script.problems(),
               store=store, resume=True, workers=1, metrics=())
    assert again.calls == [] and _round_lines(store) == after


def test_bad_generate_and_store_misuse_are_one_line_errors(tmp_path):
    problems = script.problems()
    with pytest.raises(ValueError, match=r"returned 1 answers for 3 prompts \(round 0\)"):
        refine_all(lambda reqs: ["x"], "sample", "qiskit", problems=problems)
    with pytest.raises(TypeError, match="not str"):
        refine_all(lambda reqs: [None] * len(reqs), "sample", "qiskit", problems=problems)
    with pytest.raises(ValueError, match="k must be an integer from 1 to samples=1"):
        refine_all(lambda reqs: [], "sample", "qiskit", problems=problems, k=(2,))
    # empty answers: FORMAT without running anything, stored; the store then refuses a new run
    store = tmp_path / "run"
    report = refine_all(lambda reqs: [""] * len(reqs), "sample", "qiskit",
                        problems=problems, rounds=1, store=store, metrics=())
    assert report.refinement["solved_by_round"] == [0, 0]
    assert {r["status"] for r in report.per_sample} == {"FORMAT"}
    with pytest.raises(FileExistsError, match="already holds a run"):
        refine_all(lambda reqs: [], "sample", "qiskit", problems=problems, store=store)
    with pytest.raises(ValueError, match="holds another run"):
        refine_all(lambda reqs: [], "sample", "qiskit", problems=problems, store=store,
                   resume=True, samples=2)


def test_samples_give_pass_at_k_before_and_after_repair(tmp_path):
    plan = {"sample/qk_bell_circuit": ("w", "wr")}  # sample 1 is repaired in round 1
    problems = {pid: t for pid, t in script.problems().items() if pid in plan}
    generate = script.ScriptedGenerate(plan)
    report = refine_all(generate, "sample", "qiskit", rounds=1, samples=2, k=(1, 2),
                        problems=problems, workers=1, metrics=("pass@k",))
    by_round = report.refinement["pass@k_by_round"]
    assert by_round == {"pass@1": [0.0, 0.5], "pass@2": [0.0, 1.0]}
    assert report.summary["pass@k"]["all"]["pass@2"] == 1.0
    assert [len(call) for call in generate.calls] == [2, 2]


def test_judging_options_are_evaluates_keywords():
    """JudgingOptions is evaluate's keyword list less the run's own keywords: one declaration
    that refine_all's ``**options`` is typed by."""
    params = inspect.signature(evaluate).parameters
    keywords = {name: p.annotation for name, p in params.items()
                if p.kind is inspect.Parameter.KEYWORD_ONLY and name not in RUN_KEYWORDS}
    declared = {name: getattr(t, "__forward_arg__", t)
                for name, t in JudgingOptions.__annotations__.items()}
    assert keywords == declared
    assert set(RUN_KEYWORDS) <= set(params)
    own = inspect.signature(refine_all).parameters
    assert own["options"].kind is inspect.Parameter.VAR_KEYWORD
    assert set(RUN_KEYWORDS) <= set(own)  # refine_all's own k, metrics, store, resume


def test_a_new_evaluate_option_reaches_refine_all_unedited(monkeypatch):
    """An option added to evaluate is accepted by refine_all and reaches every round's
    evaluate call, with no edit of refine_all: here a real evaluate with one more keyword."""
    real = refinement.evaluate
    seen: list[object] = []

    def evaluate_plus(*args, audit=None, **kwargs):
        seen.append(audit)
        return real(*args, **kwargs)

    sig = inspect.signature(real)
    evaluate_plus.__signature__ = sig.replace(parameters=[
        *sig.parameters.values(),
        inspect.Parameter("audit", inspect.Parameter.KEYWORD_ONLY, default=None)])
    monkeypatch.setattr(refinement, "evaluate", evaluate_plus)
    plan = {"sample/qk_bell_circuit": ("wr",)}  # wrong, then repaired: two rounds judged
    problems = {pid: t for pid, t in script.problems().items() if pid in plan}
    generate = script.ScriptedGenerate(plan)
    report = refine_all(generate, "sample", "qiskit", rounds=1, problems=problems, workers=1,
                        metrics=(), audit="on")
    assert seen == ["on", "on"]
    assert report.refinement["solved_by_round"] == [0, 1]
    # a keyword evaluate does not take is refused before anything is generated
    with pytest.raises(TypeError, match="refine_all\\(\\) got an unexpected keyword argument "
                                        "'wokers'"):
        refine_all(generate, "sample", "qiskit", problems=problems, wokers=2)
    assert len(generate.calls) == 2
