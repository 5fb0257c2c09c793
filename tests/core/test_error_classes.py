"""One error-class path: a verdict gets its class only from ``verdict.with_error_class``
(``classify_error``), so ``qce judge --json``, ``judge_one``, ``refine`` and ``evaluate`` give
the same class for the same verdict.

Every status of ``verdict.STATUSES``, for every judge, with the evidence that judge reports in
``details`` (and a wrong class preset on the raw verdict, which no path may keep), goes through
the four real paths: the real sandbox (a trivial job per case; the replayed judge decides after
it), the real ``evaluate``, ``refine`` and the CLI. Only the judge's decision is given, built as
the judges build theirs: ``judges.base.make_verdict`` with typed ``Evidence``."""

from __future__ import annotations

import ast
import io
import json
from contextlib import redirect_stdout
from dataclasses import replace
from pathlib import Path

import pytest

from quantum_codegen_eval import evaluate
from quantum_codegen_eval.benchmarks import base as registry
from quantum_codegen_eval.benchmarks import sample
from quantum_codegen_eval.cli import main
from quantum_codegen_eval.execution import Job, Sandbox
from quantum_codegen_eval.judges.base import Evidence, judge_error, judge_one, make_verdict
from quantum_codegen_eval.refinement import refine
from quantum_codegen_eval.verdict import ERROR_CLASSES, STATUSES, Verdict, with_error_class

#: every benchmark with a judge, built-in or plugin (the registry's list, never one kept here)
JUDGES = tuple(registry.judged())
PROBLEM = "sample/qk_bell_circuit"
#: the evidence a judge reports for a runtime error (the ``Evidence`` its verdicts carry); a
#: judge not named here gets every kind of evidence
ANY_EVIDENCE = [{}, {"exception_type": "TypeError"}, {"exception_type": "SyntaxError"},
                {"hallucinated": True}, {"raised_in_framework": True}, {"broke_contract": True}]
RE_EVIDENCE = {
    "qcoder": [{"exception_type": "SyntaxError"}, {"exception_type": "NameError"},
               {"exception_type": "ValueError"}, {"exception_type": "CircuitError"},
               {"broke_contract": True}],
    "qhack": [{}, {"hallucinated": ("qml.Hadamrd",)}, {"hallucinated": True},
              {"raised_in_framework": True}],
    "qiskit_humaneval": [{"exception_type": "TypeError"}, {"exception_type": "ZeroDivisionError"},
                         {"exception_type": "QiskitError"}, {"broke_contract": True}],
}
#: classes fixed by hand (the rest must merely agree): docs/evaluate.md, "Error classes"
EXPECTED = {
    ("qcoder", "UME", ()): "api_misuse", ("qhack", "MLE", ()): "timeout",
    ("qcoder", "RE", (("exception_type", "NameError"),)): "hallucination",
    ("qcoder", "RE", (("exception_type", "ValueError"),)): "reasoning",
    ("qcoder", "RE", (("broke_contract", True),)): "api_misuse",
    ("qhack", "RE", (("raised_in_framework", True),)): "api_misuse",
    ("qhack", "RE", (("hallucinated", True),)): "hallucination",
    ("qiskit_humaneval", "RE", (("exception_type", "QiskitError"),)): "api_misuse",
    ("qiskit_humaneval", "FORMAT", ()): "formatting", ("qcoder", "AC", ()): None,
}


def _cases() -> dict[str, tuple[tuple, Verdict]]:
    """completion text -> (key, the raw verdict a judge returns), every status of every judge;
    each raw verdict carries a class the one mapping would not give (no path may keep it)."""
    raws = []
    for name in JUDGES:
        judge = type("J", (), {"benchmark": name})
        for status in STATUSES:
            for evidence in (RE_EVIDENCE.get(name, ANY_EVIDENCE) if status == "RE" else [{}]):
                key = tuple(sorted(evidence.items()))
                raws.append(((name, status, key), make_verdict(
                    judge, PROBLEM, status, f"{status} by the {name} judge",
                    evidence=Evidence(**evidence))))
        # a message naming its exception, and a judge error (no class, never a pass)
        raws.append(((name, "RE", "named"), make_verdict(judge, PROBLEM, "RE", "KeyError: 'x'")))
        raws.append(((name, "RE", "judge_error"), judge_error(judge, PROBLEM, "x")))
    out = {}
    for key, raw in raws:
        raw.error_class = next(c for c in ERROR_CLASSES if c != with_error_class(raw).error_class)
        out[f"case {len(out)}"] = (key, raw)
    return out


CASES = _cases()


class ReplayJudge:
    """The judge's decision is given (the raw verdict of the case named by the completion);
    with ``run``, only after a real sandbox job, as a staged judge decides."""

    benchmark = "sample"

    def __init__(self, run: bool):
        self.run = run

    def jobs(self, problem, completion):
        if not self.run:
            return self._raw(completion)
        return [Job("print('data only')", id=completion)]

    def decide(self, problem, completion, results):
        assert [r.stdout for r in results] == ["data only\n"], results
        return self._raw(completion)

    @staticmethod
    def _raw(completion):
        return Verdict.from_dict(CASES[completion][1].to_dict())


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(workers=2, preload=(), wall_time=10, memory_mb=512) as sb:
        yield sb


@pytest.fixture(scope="module")
def classes(sandbox, tmp_path_factory):
    """completion -> {path: error class} for the four paths."""
    problem = sample.get_problem(PROBLEM)
    staged = ReplayJudge(run=True)
    out = {c: {} for c in CASES}
    for completion in CASES:
        out[completion]["judge_one"] = judge_one(staged, problem, completion, sandbox).error_class
        rounds = refine(lambda _prompt, c=completion: c, problem, judge=staged, max_rounds=1,
                        sandbox=sandbox).rounds
        out[completion]["refine"] = rounds[0].verdict.error_class
    report = evaluate({PROBLEM: list(CASES)}, "sample", "qiskit", k=(1,), metrics=(),
                      judge=staged, sandbox=sandbox)
    for completion, row in zip(CASES, report.per_sample, strict=True):
        out[completion]["evaluate"] = row["error_class"]

    bench = replace(registry.get("sample"), judge=lambda **_: ReplayJudge(run=False))
    folder = tmp_path_factory.mktemp("completions")
    mp = pytest.MonkeyPatch()
    mp.setattr(registry, "get", lambda name: bench)
    try:
        for i, completion in enumerate(CASES):
            path = folder / f"{i}.py"
            path.write_text(completion)
            printed = io.StringIO()
            with redirect_stdout(printed):
                code = main(["judge", "sample", PROBLEM, str(path), "--json"])
            printed = json.loads(printed.getvalue())
            assert code == (0 if printed["status"] == "AC" else 1)  # exit 1: not accepted
            out[completion]["qce judge --json"] = printed["error_class"]
    finally:
        mp.undo()
    return out


def test_every_path_gives_the_one_mappings_class(classes):
    assert len({key for key, _ in CASES.values()}) == len(CASES)
    for completion, (key, raw) in CASES.items():
        want = with_error_class(raw).error_class
        got = classes[completion]
        assert set(got) == {"judge_one", "refine", "evaluate", "qce judge --json"}
        assert set(got.values()) == {want}, (key, got, want)
        assert want != raw.error_class, key  # the class the judge preset is ignored


def test_chosen_classes(classes):
    by_key = {key: completion for completion, (key, _) in CASES.items()}
    for key, want in EXPECTED.items():
        assert classes[by_key[key]]["evaluate"] == want, key
    for name in JUDGES:
        assert classes[by_key[(name, "RE", "judge_error")]]["judge_one"] is None
        assert classes[by_key[(name, "RE", "named")]]["qce judge --json"] == "reasoning"  # KeyError


def test_every_status_of_every_judge_is_covered():
    covered = {(key[0], key[1]) for key, _ in CASES.values()}
    assert covered == {(j, s) for j in JUDGES for s in STATUSES}


def test_no_judge_sets_an_error_class():
    """The judges report evidence; a class given to ``Verdict(...)`` or assigned to
    ``.error_class`` in judges/ would be a second mapping."""
    judges = Path(__file__).resolve().parents[2] / "src" / "quantum_codegen_eval" / "judges"
    bad = []
    for path in judges.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.keyword) and node.arg == "error_class":
                bad.append(f"{path.name}:{node.value.lineno}")
            if isinstance(node, ast.Attribute) and node.attr == "error_class" and isinstance(
                    node.ctx, ast.Store):
                bad.append(f"{path.name}:{node.lineno}")
    assert not bad, bad
