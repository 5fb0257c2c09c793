"""The 2022 hidden-oracle scripts: a program the contest accepts only because its process held
the oracle is a judge limitation (``oracle_in_process``), never the model's error.

The judge runs these four drivers on a decoy input and answers the program's oracle queries in
rounds (docs/benchmarks/qhack.md, *Hidden oracles*), so a program that reads the oracle instead
of querying it fails there. When the rounds do not accept a program, the judge runs it once more
as the contest did (the driver on the test's input, the oracle built in the program's process)
and compares what it printed with ``N.ans``, the contest's own rule: accepted there, the sample
is a judge limitation; rejected there too, the rounds' verdict stands. Programs of both kinds,
written here, through the judge and through the contest's own loop in the era interpreter."""

from __future__ import annotations

from pathlib import Path

import pytest
from qhack_official import official_loop

from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.judges.base import judge_many

pytestmark = [pytest.mark.era, pytest.mark.upstream]

DJ = "2022/algorithms_100_DeutschJozsa_template"
SOLUTIONS = Path(__file__).parent / "solutions" / "2022"

#: reads the CNOTs the oracle queues instead of running it in a circuit
READS_THE_ORACLE = '''
from collections import Counter

import pennylane as qml


def deutsch_jozsa(oracle):
    with qml.tape.QuantumTape() as tape:
        oracle()
    wires = Counter(tuple(op.wires.tolist()) for op in tape.operations)
    return "balanced" if any(n % 2 for n in wires.values()) else "constant"
'''

#: reads the oracle and gets it wrong (an even count read as balanced)
READS_IT_WRONG = READS_THE_ORACLE.replace("n % 2", "n")

CASES = {
    "reads": (READS_THE_ORACLE, "limitation"),
    "reads_wrong": (READS_IT_WRONG, "WA"),
    "honest": ((SOLUTIONS / "algorithms_100_DeutschJozsa_template.py").read_text(), "AC"),
}


@pytest.fixture(scope="module")
def verdicts(qhack_problems, sandbox):
    judge = qhack.make_judge(env="era")
    got = judge_many(judge, [(qhack_problems[DJ], code) for code, _ in CASES.values()], sandbox)
    return dict(zip(CASES, got, strict=True))


def test_accepted_by_the_contest_only_through_its_process_is_a_judge_limitation(verdicts):
    v = verdicts["reads"]
    assert v.judge_limitation == "oracle_in_process", (v.status, v.message)
    assert v.judge_error and v.error_class is None
    assert v.details["rounds_status"] == "WA" and "contest's protocol" in v.message


def test_rejected_by_the_contest_too_keeps_the_rounds_verdict(verdicts):
    v = verdicts["reads_wrong"]
    assert v.status == "WA" and not v.judge_error, v.message


def test_an_honest_query_is_judged_in_the_rounds_alone(verdicts):
    v = verdicts["honest"]
    assert v.status == "AC", v.message
    assert v.details["oracle_queries"] == [1, 1]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_contests_loop_agrees(name, qhack_problems, tmp_path):
    code, judged = CASES[name]
    run = official_loop(name, qhack_problems[DJ], code, tmp_path / name)
    if run.failure and run.failure.startswith("skip:"):
        pytest.skip(run.failure)
    assert (run.failure is None) == (judged in ("AC", "limitation")), run.failure
