"""Every random draw of the QHack judge comes from the judge option ``seed``: the same program
gets the same partial credit on every run (and on resume), another seed is recorded.

``2023/office_hijinks_300`` draws, per test, the wire of the harness's error ``U()`` (its trusted
replay draws it again from a seed the program never saw). The stub below moves the state to wire
2 and corrects nothing: it passes a test when the error misses wire 2, so its partial credit
depends on the draws. Before the option existed it passed a different number of the 20 tests on
each run (the trusted replay seeded from ``os.urandom``).
"""

from __future__ import annotations

import pytest

from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.judges.base import judge_many
from quantum_codegen_eval.judges.qhack import QHackJudge

pytestmark = [pytest.mark.slow, pytest.mark.upstream]

STUB = '''
import pennylane as qml


def circuit_left():
    qml.SWAP(wires=[0, 1])
    qml.SWAP(wires=[1, 2])


def circuit_right():
    pass
'''

CHALLENGE = "2023/office_hijinks_300"


def _pattern(v):
    return [t.passed for t in v.tests]


def test_test_seed_is_a_function_of_option_challenge_and_test(qhack_problems):
    record = qhack_problems[CHALLENGE]
    a, b = QHackJudge(seed=0), QHackJudge(seed=1)
    seeds = [a.test_seed(record, i) for i in range(len(record.tests))]
    assert seeds == [QHackJudge(seed=0).test_seed(record, i) for i in range(len(record.tests))]
    assert len(set(seeds)) == len(seeds)  # one per test (inputs repeat: seeds do not)
    assert seeds != [b.test_seed(record, i) for i in range(len(record.tests))]
    assert a.test_seed(record, 0, "hidden", "x") != a.test_seed(record, 0, "hidden", "y")
    assert a.options()["seed"] == 0 and b.options()["seed"] == 1
    with pytest.raises(ValueError, match="seed"):
        QHackJudge(seed=-1)
    with pytest.raises(ValueError, match="seed"):
        QHackJudge(seed=1.5)  # type: ignore[arg-type]


def test_same_stub_same_partial_credit_and_seed_recorded(qhack_problems, sandbox):
    record = qhack_problems[CHALLENGE]
    default = qhack.make_judge(env="era")
    other = qhack.make_judge(env="era", seed=7)
    first = judge_many(default, [(record, STUB)] * 3, sandbox)
    again = judge_many(other, [(record, STUB)], sandbox)[0]
    passed = [v.tests_passed for v in first]
    assert passed[0] == passed[1] == passed[2], passed
    assert _pattern(first[0]) == _pattern(first[1]) == _pattern(first[2])
    # the draws matter: the stub passes some tests and fails others
    assert 0 < passed[0] < first[0].tests_total == 20, passed
    assert all(v.details["seed"] == 0 for v in first)
    assert again.details["seed"] == 7 and other.options()["seed"] == 7
    assert 0 < again.tests_passed < 20
    assert _pattern(again) != _pattern(first[0])  # another seed, other draws
