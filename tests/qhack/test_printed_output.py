"""2022: everything a program prints is its output, as every 2022 statement says ("Do not add
any print statements to your solution, as this will cause your submission to fail"). A
classifier of qml_300_IsingOnTheCake that prints its training progress besides the labels has
the wrong number of labels, which the contest's check rejected; judging only the last printed
line gave it AC. Programs of that kind, written here, through the real judge and sandbox."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.judges.base import judge_many
from quantum_codegen_eval.judges.qhack.judge import QHackJudge

ISING = "2022/qml_300_IsingOnTheCake_template"

QUIET = '''def classify_ising_data(ising_configs, labels):
    return [int(label) for label in labels]
'''

CHATTY = '''def classify_ising_data(ising_configs, labels):
    for epoch in range(3):
        print(f"epoch {epoch}: accuracy {0.8 + 0.05 * epoch:.2f}")
    return [int(label) for label in labels]
'''

TO_STDERR = '''import sys


def classify_ising_data(ising_configs, labels):
    print("training ...", file=sys.stderr)
    return [int(label) for label in labels]
'''


def test_a_print_besides_the_answer_is_a_wrong_answer(qhack_problems, sandbox):
    record = qhack_problems[ISING]
    quiet, chatty, stderr = judge_many(QHackJudge(env="current"),
                                       [(record, QUIET), (record, CHATTY), (record, TO_STDERR)],
                                       sandbox)
    assert quiet.status == "AC", quiet.message
    assert stderr.status == "AC", stderr.message  # stderr is not the output
    assert chatty.status == "WA"
    (test,) = chatty.tests
    assert test.message == "expected 250 values, got 262", test.message  # 3 lines of 4
    assert test.got.startswith("epoch 0: accuracy 0.80")


@pytest.mark.parametrize("wrong, status", [(25, "AC"), (26, "WA")])
def test_the_accuracy_boundary_is_included(qhack_problems, sandbox, wrong, status):
    """"Tolerance: >= 90%": 225 of 250 labels right passes, 224 does not."""
    record = qhack_problems[ISING]
    code = f'''def classify_ising_data(ising_configs, labels):
    return [-int(v) if i < {wrong} else int(v) for i, v in enumerate(labels)]
'''
    (v,) = judge_many(QHackJudge(env="current"), [(record, code)], sandbox)
    assert v.status == status, v.message
