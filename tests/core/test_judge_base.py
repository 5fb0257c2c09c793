"""judges/base.py, the staged-judge base: a job's JSON result is read by one bounded helper
(``read_result``) into a typed ``JobResult``; a verdict is built one way (``make_verdict``, with
typed ``Evidence``, never a class), and every judge builds its verdicts through it.

The results are real sandbox runs: the files a job leaves in its working directory (given as
its input files, or written by the program) are what ``collect`` brings back."""

from __future__ import annotations

import ast
import json
import tracemalloc
from pathlib import Path

import pytest

from quantum_codegen_eval.execution import Job, Limits, Sandbox
from quantum_codegen_eval.judges.base import (
    MAX_RESULT_DEPTH,
    READ_FAILURES,
    Evidence,
    JobResult,
    ResultFailure,
    judge_error,
    make_verdict,
    parsed_cost,
    read_result,
    run_timings,
)
from quantum_codegen_eval.verdict import (
    EVIDENCE,
    TestResult,
    Verdict,
    classify_error,
    with_error_class,
)

JUDGES = Path(__file__).resolve().parents[2] / "src" / "quantum_codegen_eval" / "judges"
LIMIT = 20_000

#: file -> what read_result makes of it (reason of the failure, or None: read)
FILES = {
    "ok.json": (b'{"a": [1, 2, {"b": null}]}', None),
    "list.json": (b"[1, 2]", None),
    "empty.json": (b"", "malformed"),
    "text.json": (b"not json", "malformed"),
    "cut.json": (b'{"a": [1, 2', "malformed"),
    "bytes.json": (b"\xff\xfe{}", "malformed"),
    "deep.json": (b"[" * 5000 + b"]" * 5000, "malformed"),  # under the byte bound, too deep
    # the depth bound is the package's, not the Python's (3.13's json.loads parses deep.json)
    "nested.json": (b"[" * MAX_RESULT_DEPTH + b"]" * MAX_RESULT_DEPTH, None),
    "deeper.json": (b"[" * (MAX_RESULT_DEPTH + 1) + b"]" * (MAX_RESULT_DEPTH + 1), "malformed"),
    "brackets.json": (b'{"s": "' + b"[{" * 5000 + b'\\\\", "t": ["\\"]"]}', None),  # in strings
    "big.json": (b'"' + b"x" * LIMIT + b'"', "oversized"),
}


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(workers=1, preload=(), wall_time=10, memory_mb=512) as sb:
        yield sb


@pytest.fixture(scope="module")
def run(sandbox):
    """A real run whose working directory holds every file of ``FILES`` (and not absent.json)."""
    files = {name: data for name, (data, _) in FILES.items()}
    r = sandbox.run_job(Job("import sys\nsys.exit(3)", id="results", files=files,
                            collect=(*files, "absent.json")))
    assert r.status == "error" and r.exit_code == 3 and set(r.files) == set(files)
    return r


def test_every_file_a_job_leaves_is_read_or_one_typed_failure(run):
    for name, (data, reason) in FILES.items():
        got = read_result(run, name, LIMIT)
        assert isinstance(got, JobResult)
        assert (got.id, got.status, got.exit_code) == ("results", "error", 3)
        assert (got.wall_time, got.cpu_time) == (run.wall_time, run.cpu_time) and got.wall_time > 0
        if reason is None:
            assert got.read and got.failure is None and got.value == json.loads(data)
            continue
        assert not got.read and got.value is None, name
        assert isinstance(got.failure, ResultFailure) and got.failure.reason == reason, name
        assert got.failure.name == name and name in str(got.failure)
    missing = read_result(run, "absent.json", LIMIT)
    assert missing.failure == ResultFailure("absent.json", "missing")
    assert str(missing.failure) == "no absent.json"
    big = read_result(run, "big.json", LIMIT).failure
    assert (big.size, big.limit, big.parsed) == (LIMIT + 2, LIMIT, False)
    assert read_result(run, "big.json", LIMIT + 2).value == "x" * LIMIT  # the bound is inclusive


def test_the_parsed_cost_bound_is_checked_before_parsing(run):
    data = FILES["ok.json"][0]
    got = read_result(run, "ok.json", LIMIT, max_parsed=parsed_cost(data) - 1)
    assert got.failure == ResultFailure("ok.json", "oversized", parsed_cost(data),
                                        parsed_cost(data) - 1, parsed=True)
    assert "parsed" in str(got.failure)
    assert read_result(run, "ok.json", LIMIT, max_parsed=parsed_cost(data)).read


@pytest.mark.parametrize(("value", "factor"), [
    ([{"k": "v"}] * 20_000, 1), (["x" * 30] * 20_000, 1), ([[]] * 20_000, 1),
    ([{"list": [{"none": 0}]}] * 20_000, 1), ([{"k": None}, "ab", []] * 20_000, 1),
    # numbers are counted at their text: up to 3 times under (the docstring says so)
    ([1e10] * 100_000, 3), ([[1.5, "ab"]] * 20_000, 3),
    ({f"k{i}": [i, None] for i in range(20_000)}, 3)])
def test_parsed_cost_bounds_what_parsing_takes(value, factor):
    raw = json.dumps(value).encode()
    tracemalloc.start()
    try:
        parsed = json.loads(raw)
        used = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert parsed == value and used <= factor * parsed_cost(raw), (used, parsed_cost(raw))


def test_json_lines_keep_every_line_before_a_cut(sandbox):
    data = b'{"i": 0}\n{"i": 1}\n\n{"i": 2, "cut'
    r = sandbox.run_job(Job("pass", id="lines", files={"out.jsonl": data},
                            collect=("out.jsonl",)))
    got = read_result(r, "out.jsonl", LIMIT, lines=True)
    assert got.read and got.value == [{"i": 0}, {"i": 1}, None, None]
    assert read_result(r, "out.jsonl", 10, lines=True).failure.reason == "oversized"
    assert read_result(r, "none.jsonl", LIMIT, lines=True).failure.reason == "missing"


def test_a_job_stopped_at_a_limit_names_the_status(sandbox):
    slow = sandbox.run_job(Job("while True:\n    pass", id="slow",
                               limits=Limits(wall_time=5, cpu_time=1)))
    got = read_result(slow, "result.json", LIMIT)
    assert (got.status, got.limit_status, got.failure.reason) == ("timeout", "TLE", "missing")
    assert got.cpu_time >= 0.5
    fine = read_result(slow.__class__(id="x", status="ok", exit_code=0), "r", LIMIT)
    assert fine.limit_status is None
    assert run_timings([slow, slow]) == {"wall_time": 2 * slow.wall_time,
                                         "cpu_time": 2 * slow.cpu_time}


def test_unknown_failure_reason_is_refused():
    assert READ_FAILURES == ("missing", "oversized", "malformed")
    with pytest.raises(ValueError, match="unknown read failure"):
        ResultFailure("x", "lost")


def test_evidence_goes_to_details_and_only_classify_error_gives_the_class():
    cases = [
        (Evidence(exception_type="NameError"), {"exception_type": "NameError"}),
        (Evidence(hallucinated=("qml.Foo",)), {"hallucinated": ["qml.Foo"]}),
        (Evidence(hallucinated=True), {"hallucinated": True}),
        (Evidence(raised_in_framework=True), {"raised_in_framework": True}),
        (Evidence(broke_contract=True), {"broke_contract": True}),
        (Evidence(exception_type="ValueError", broke_contract=True),
         {"exception_type": "ValueError", "broke_contract": True}),
        (Evidence(), {}),
    ]
    judge = type("J", (), {"benchmark": "b"})()
    for evidence, details in cases:
        assert evidence.details() == details and set(details) <= set(EVIDENCE)
        v = make_verdict(judge, "p", "RE", "boom", evidence=evidence, details={"own": 1})
        assert v.details == {"own": 1, **details} and v.error_class is None
        assert with_error_class(v).error_class == classify_error(
            "RE", evidence.exception_type, hallucinated=bool(evidence.hallucinated),
            raised_in_framework=evidence.raised_in_framework,
            broke_contract=evidence.broke_contract)
        assert Verdict.from_dict(json.loads(v.to_json())) == v  # round-trips as stored
    assert Evidence.from_error("Traceback ...\nqiskit.exceptions.QiskitError: x") == Evidence(
        exception_type="qiskit.exceptions.QiskitError")
    assert Evidence.from_error("the code does not define solve()") == Evidence(
        broke_contract=True)


def test_make_verdict_counts_tests_and_refuses_evidence_in_details():
    judge = type("J", (), {"benchmark": "qcoder"})()
    tests = [TestResult("a", True, "AC"), TestResult("b", False, "WA"), TestResult("c", True)]
    v = make_verdict(judge, "P1", "WA", "b: wrong", tests=tests, timings={"wall_time": 1.0})
    assert (v.benchmark, v.problem_id, v.tests_passed, v.tests_total) == ("qcoder", "P1", 2, 3)
    assert v.tests == tests and v.timings == {"wall_time": 1.0}
    assert make_verdict(judge, "P1", "FORMAT", tests_total=1).tests_total == 1
    for key in EVIDENCE:
        with pytest.raises(ValueError, match="evidence="):
            make_verdict(judge, "P1", "RE", details={key: "x"})
    err = judge_error(judge, "P1", "it broke", tests=tests, details={"exception_type": "E",
                                                                    "where": "check"})
    assert err.judge_error and err.status == "RE" and err.message == "judge error: it broke"
    assert err.details == {"judge_error": True, "where": "check", "exception_type": "E"}
    assert (err.tests_passed, err.tests_total) == (2, 3)
    assert with_error_class(err).error_class is None


def test_no_judge_builds_a_verdict_of_its_own():
    """Every ``Verdict(...)`` in judges/ is in base.py's ``make_verdict``: the one way."""
    made = []
    for path in JUDGES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and (
                    getattr(node.func, "id", None) == "Verdict"
                    or getattr(node.func, "attr", None) == "Verdict"):
                made.append(f"{path.relative_to(JUDGES)}:{node.lineno}")
    assert len(made) == 1 and made[0].startswith("base.py:"), made
