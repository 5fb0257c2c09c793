"""Checks that use each call's result before the next call: one round per call.

Upstream's task 145 needs 7 rounds (six sizes of the inverse QFT, each checked before the next,
then ``n = 0``), the most of any upstream task; the former bound was exactly 7 rounds. Past it a
sample was a judge error where upstream's check says AC or WA. The bound is now ``MAX_ROUNDS``
with a CPU budget over all of a sample's jobs (``ROUND_BUDGET`` x ``time_limit``); past either,
a judge limitation that names the limit (``details["judge_limitation"]``). The tasks with more rounds here
are written for these tests.
"""

from __future__ import annotations

import pytest

from quantum_codegen_eval.benchmarks import qiskit_humaneval as qhe
from quantum_codegen_eval.judges.base import MAX_STAGES, judge_many, stage_limit
from quantum_codegen_eval.judges.qiskit_humaneval import judge as qhe_judge
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


def test_the_stage_bound_is_the_judges():
    judge = qhe.make_judge()
    assert stage_limit(judge) == 2 * qhe_judge.MAX_ROUNDS + 1 > MAX_STAGES
    assert stage_limit(object()) == MAX_STAGES


@pytest.fixture(scope="module")
def twelve(sandbox):
    return judge_many(qhe.make_judge(time_limit=20.0),
                      [(TWELVE, BODY), (TWELVE, WRONG_AT_10)], sandbox)


def test_twelve_dependent_calls_are_decided_as_upstream(twelve):
    right, wrong = (with_error_class(v) for v in twelve)
    assert right.status == "AC" and right.details["rounds"] == 12, right.message
    assert (wrong.status, wrong.error_class) == ("WA", "reasoning"), wrong.message
    assert "wrong at 10" in wrong.message and wrong.details["rounds"] == 11
    assert not wrong.judge_error


@pytest.mark.slow
def test_past_the_round_bound_is_a_judge_limit(sandbox):
    task = _task("many", qhe_judge.MAX_ROUNDS + 5)
    v = judge_many(qhe.make_judge(time_limit=20.0), [(task, BODY)], sandbox)[0]
    assert v.judge_error and v.status == "RE" and v.error_class is None, v.message
    assert v.judge_limitation == "proxy_rounds" and v.details["rounds"] == qhe_judge.MAX_ROUNDS
    assert f"more than {qhe_judge.MAX_ROUNDS} rounds" in v.message


@pytest.mark.slow
def test_past_the_cpu_budget_is_a_judge_limit(sandbox):
    # every round re-runs the program: its top level spins 1.6 CPU s (under the 2 s per job),
    # so 20 rounds would take ~35 CPU s, over the budget of 10 x 2 s
    spin = ("\nimport time as _t\n_end = _t.process_time() + 1.6\n"
            "while _t.process_time() < _end:\n    pass\n")
    task = _task("budget", 20)
    v = judge_many(qhe.make_judge(time_limit=2.0),
                   [(task, "\n    return 2 * n\n" + spin)], sandbox)[0]
    assert v.judge_error and v.judge_limitation == "round_budget", v.message
    budget = qhe_judge.ROUND_BUDGET * 2.0
    assert v.details["cpu_seconds"] >= budget and 5 < v.details["rounds"] < 20
    assert "budget" in v.message


@pytest.mark.slow
@pytest.mark.upstream
def test_task_145_needs_seven_rounds(qhe_dir, sandbox):
    """The real task with the most rounds: its canonical solution and a program wrong only at
    the last size (n = 10, round 6)."""
    task = qhe.problems("normal", data_dir=qhe_dir)["qiskitHumanEval/145"]
    wrong = ("\n    from qiskit.circuit.library import QFT\n"
             "    qc = QFT(n, approximation_degree=0, inverse=True).decompose()\n"
             "    if n == 10:\n        qc.z(0)\n    return qc\n")
    right, bad = judge_many(qhe.make_judge(time_limit=60.0),
                            [(task, task.canonical_solution), (task, wrong)], sandbox)
    assert right.status == "AC" and right.details["rounds"] == 7, right.message
    assert bad.status == "WA" and bad.details["rounds"] == 6 and not bad.judge_error, bad.message


def test_evaluate_runs_past_the_default_stage_bound(sandbox):
    """``evaluate`` reads the judge's own stage bound: 12 rounds are 25 stages (over the default
    16), and the samples get the verdicts ``judge_many`` gives."""
    from quantum_codegen_eval.evaluate import evaluate

    report = evaluate({TWELVE.task_id: ["```python\ndef double(n):\n    return 2 * n\n```",
                                        "```python\ndef double(n):\n    return 2 * n + (n == 10)\n"
                                        "```"]},
                      "qiskit_humaneval", "normal", problems={TWELVE.task_id: TWELVE},
                      judge=qhe.make_judge(time_limit=20.0), sandbox=sandbox, k=(1,),
                      metrics=("pass@k",))
    assert sorted(s["status"] for s in report.per_sample) == ["AC", "WA"], report.per_sample
    assert not any(s.get("judge_error") for s in report.per_sample), report.per_sample


#: ``check`` draws as many numbers as the last result says, so a stand-in result (the earlier
#: result for the same arguments) leaves the random state where the real one would not; the
#: third call must still start from the state ``check`` really has there, as in one process
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


def test_a_speculated_call_is_asked_again_in_the_real_random_state(sandbox):
    v = judge_many(qhe.make_judge(time_limit=20.0),
                   [(RANDOM_STATE, "\n    import random\n    return random.random()\n")],
                   sandbox)[0]
    assert v.status == "AC", v.message
    # x; then y with z speculated on y's stand-in; then z again in the real state
    assert v.details["rounds"] == 3 and v.details["calls"] == 3, v.details
