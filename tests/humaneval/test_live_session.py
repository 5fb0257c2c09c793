"""Checks that use each call's result before the next call, in one live session.

The check's job and the program's job run side by side, linked: each call goes to the program
and its result comes back before the check goes on, and every call is answered by the one
process that ran the program, as in upstream's runner. Upstream's task 145 uses each of seven
calls' results before the next (six sizes of the inverse QFT, then ``n = 0``); the tasks with
more calls here are written for these tests.
"""

from __future__ import annotations

import pytest

from quantum_codegen_eval.benchmarks import qiskit_humaneval as qhe
from quantum_codegen_eval.judges.base import MAX_STAGES, judge_many, stage_limit
from quantum_codegen_eval.verdict import with_error_class


def _task(name: str, calls: int) -> qhe.Task:
    """``check`` asserts on ``candidate(n)`` for ``n < calls`` before it calls ``n + 1``."""
    test = ("def check(candidate):\n"
            f"    for n in range({calls}):\n"
            "        assert candidate(n) == 2 * n, f'wrong at {n}'\n")
    return qhe.Task(f"own/{name}", 'def double(n):\n    """2 n."""', "", test, "double",
                    "basic", "normal")


TWELVE = _task("twelve", 12)
BODY = "\n    return 2 * n\n"
#: right on every size but 10: upstream's check fails on its 11th call
WRONG_AT_10 = "\n    return 2 * n + (n == 10)\n"


def test_one_stage_whatever_the_calls():
    judge = qhe.make_judge()
    assert stage_limit(judge) == 1 < MAX_STAGES
    assert stage_limit(object()) == MAX_STAGES


@pytest.fixture(scope="module")
def twelve(sandbox):
    return judge_many(qhe.make_judge(time_limit=20.0),
                      [(TWELVE, BODY), (TWELVE, WRONG_AT_10)], sandbox)


def test_twelve_dependent_calls_are_decided_as_upstream(twelve):
    right, wrong = (with_error_class(v) for v in twelve)
    assert right.status == "AC" and right.details["calls"] == 12, right.message
    assert (wrong.status, wrong.error_class) == ("WA", "reasoning"), wrong.message
    assert "wrong at 10" in wrong.message and wrong.details["calls"] == 11
    assert not wrong.judge_error


#: the program's calls remember what the earlier ones did: one process answers them all
COUNTER = qhe.Task(
    "own/counter", 'def tick():\n    """How many times tick() was called."""', "",
    "def check(candidate):\n"
    "    assert [candidate() for _ in range(5)] == [1, 2, 3, 4, 5]\n",
    "tick", "basic", "normal")


def test_every_call_meets_the_same_process(sandbox):
    body = "\n    global _n\n    _n = globals().get('_n', 0) + 1\n    return _n\n"
    v = judge_many(qhe.make_judge(time_limit=20.0), [(COUNTER, body)], sandbox)[0]
    assert v.status == "AC" and v.details["calls"] == 5, v.message


def test_the_time_limit_covers_all_calls(sandbox):
    """The program's job gets ``time_limit`` CPU seconds for its top level and every call (one
    process, as upstream's): 20 calls of 0.3 CPU s each are over 2 s."""
    spin = ("\n    import time as _t\n    _end = _t.process_time() + 0.3\n"
            "    while _t.process_time() < _end:\n        pass\n    return 2 * n\n")
    task = _task("budget", 20)
    v = judge_many(qhe.make_judge(time_limit=2.0), [(task, spin)], sandbox)[0]
    assert v.status == "TLE" and not v.judge_error, v.message
    assert 5 <= v.details["calls"] <= 8, v.details


@pytest.mark.slow
@pytest.mark.upstream
def test_task_145_uses_each_result_before_the_next_call(qhe_dir, sandbox):
    """The real task with the most dependent calls: its canonical solution and a program wrong
    only at the last size (n = 10, call 6)."""
    task = qhe.problems("normal", data_dir=qhe_dir)["qiskitHumanEval/145"]
    wrong = ("\n    from qiskit.circuit.library import QFT\n"
             "    qc = QFT(n, approximation_degree=0, inverse=True).decompose()\n"
             "    if n == 10:\n        qc.z(0)\n    return qc\n")
    right, bad = judge_many(qhe.make_judge(time_limit=60.0),
                            [(task, task.canonical_solution), (task, wrong)], sandbox)
    assert right.status == "AC" and right.details["calls"] == 7, right.message
    assert bad.status == "WA" and bad.details["calls"] == 6 and not bad.judge_error, bad.message


def test_evaluate_gives_the_verdicts_judge_many_gives(sandbox):
    """``evaluate`` runs the linked jobs as ``judge_many`` does."""
    from quantum_codegen_eval.evaluate import evaluate

    report = evaluate({TWELVE.task_id: ["```python\ndef double(n):\n    return 2 * n\n```",
                                        "```python\ndef double(n):\n    return 2 * n + (n == 10)\n"
                                        "```"]},
                      "qiskit_humaneval", "normal", problems={TWELVE.task_id: TWELVE},
                      judge=qhe.make_judge(time_limit=20.0), sandbox=sandbox, k=(1,),
                      metrics=("pass@k",))
    assert sorted(s["status"] for s in report.per_sample) == ["AC", "WA"], report.per_sample
    assert not any(s.get("judge_error") for s in report.per_sample), report.per_sample


#: ``check`` draws as many numbers as the last result says; the third call must start from
#: the state ``check`` really has there, as in one process
RANDOM_STATE = qhe.Task(
    "own/random_state", 'def draw(n):\n    """A number drawn from the global random state."""',
    "", "def check(candidate):\n"
        "    import random\n"
        "    random.seed(7)\n"
        "    x = candidate(0)\n"
        "    for _ in range(int(x * 10)):\n"
        "        random.random()\n"
        "    y = candidate(0)\n"
        "    for _ in range(int(y * 10)):\n"
        "        random.random()\n"
        "    state = random.getstate()\n"
        "    z = candidate(0)\n"
        "    random.setstate(state)\n"
        "    assert z == random.random(), 'z was drawn from a state check() never had'\n",
    "draw", "basic", "normal")


def test_a_call_starts_from_the_checks_random_state(sandbox):
    v = judge_many(qhe.make_judge(time_limit=20.0),
                   [(RANDOM_STATE, "\n    import random\n    return random.random()\n")],
                   sandbox)[0]
    assert v.status == "AC", v.message
    assert v.details["calls"] == 3, v.details
