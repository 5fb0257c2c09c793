"""``evaluate()`` is one way down (issue 35): read -> open the store -> plan -> judge -> score,
each step a unit of its own that a caller can run by hand; ``evaluate`` only calls them in order
and must not grow back into the hub."""

from __future__ import annotations

import importlib
import inspect
import json
import time

import pytest

from quantum_codegen_eval.benchmarks import get, sample
from quantum_codegen_eval.execution import Sandbox

ev = importlib.import_module("quantum_codegen_eval.evaluate")  # the module, not the function

#: the steps, in the order evaluate() calls them
UNITS = ("read_samples", "open_store", "plan_samples", "judge_plan", "score_run")
#: evaluate()'s body (docstring, blank lines and comments aside) stays short
MAX_BODY_LINES = 40


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(workers=2) as sb:
        yield sb


def _rows():
    return [json.loads(line) for line in open(sample.predictions_path())
            if line.strip() and not json.loads(line)["id"].startswith("sample/pl_")]


def _body_lines(fn) -> list[str]:
    source = inspect.getsource(fn)
    body = source.split('"""', 2)[2]  # after the docstring
    return [line for line in body.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def test_evaluate_stays_a_short_function_over_the_units():
    lines = _body_lines(ev.evaluate)
    assert len(lines) <= MAX_BODY_LINES, f"evaluate() has {len(lines)} lines of body"
    for name in UNITS:
        unit = getattr(ev, name)
        assert callable(unit) and unit.__doc__, name
        assert unit.__module__ == ev.__name__, name
    # the stage driver, the store handling and the exception mapping live in the units
    body = "\n".join(lines)
    for gone in ("drive_stages", "_run_planned", "ResultStore", "KeyboardInterrupt",
                 "except", "for sample in"):
        assert gone not in body, gone


def test_evaluate_calls_each_unit_once_in_order(monkeypatch, sandbox):
    calls: list[str] = []
    for name in UNITS:
        unit = getattr(ev, name)

        def spy(*args, _unit=unit, _name=name, **kwargs):
            calls.append(_name)
            return _unit(*args, **kwargs)

        monkeypatch.setattr(ev, name, spy)
    report = ev.evaluate(_rows()[:3], "sample", "qiskit", k=(1,), sandbox=sandbox)
    assert calls == list(UNITS)
    assert len(report.per_sample) == 3


def _comparable(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k != "seconds"}


def test_the_units_by_hand_give_evaluates_report(tmp_path, sandbox):
    rows = _rows()
    expected = ev.evaluate(rows, "sample", "qiskit", k=(1, 2), sandbox=sandbox)

    started = time.time()
    bench = get("sample")
    problems = bench.loader.problems("qiskit")
    judge = bench.make_judge()
    samples, missing = ev.read_samples(rows)
    store, done = ev.open_store(tmp_path / "results.jsonl")
    plan = ev.plan_samples(samples, bench, "qiskit", judge, problems, store=store, done=done)
    assert isinstance(plan, ev.Plan) and plan.jobs  # something is left to judge
    assert not set(plan.jobs) & set(plan.verdicts)  # a sample is decided, or planned
    ev.judge_plan(plan, sandbox=sandbox)
    assert set(plan.verdicts) == {s.key for s in samples}
    report = ev.score_run(bench, "qiskit", samples, plan.verdicts, problems, k=(1, 2),
                          metrics=ev.DEFAULT_METRICS, started=started,
                          summary={"programs": plan.program_counts()})

    assert missing == []
    assert ([(r["key"], r["status"], r["error_class"]) for r in report.per_sample]
            == [(r["key"], r["status"], r["error_class"]) for r in expected.per_sample])
    assert _comparable(report.summary) == _comparable(expected.summary)
    assert report.per_problem == expected.per_problem
    # judge_plan closed the store; every verdict is in it
    stored = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert sorted(r["key"] for r in stored) == sorted(s.key for s in samples)


def test_a_resumed_plan_decides_everything_from_the_store(tmp_path, sandbox):
    rows = _rows()[:4]
    path = tmp_path / "results.jsonl"
    first = ev.evaluate(rows, "sample", "qiskit", k=(1,), store=path, sandbox=sandbox)
    with pytest.raises(ev.StoreInUse):
        ev.open_store(path)
    bench = get("sample")
    store, done = ev.open_store(path, resume=True)
    samples, _ = ev.read_samples(rows)
    plan = ev.plan_samples(samples, bench, "qiskit", bench.make_judge(),
                           bench.loader.problems("qiskit"), store=store, done=done)
    assert plan.jobs == {} and len(done) == 4
    assert ev.judge_plan(plan) is None  # nothing to run: no pool started
    assert ({k: v.status for k, v in plan.verdicts.items()}
            == {r["key"]: r["status"] for r in first.per_sample})
