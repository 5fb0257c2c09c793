"""The contest loop's line comparison (tests/support/qhack_official.py) agrees with the judge's.

2022 qml_300_IsingOnTheCake's PDF accepts a classifier whose labels match ``.ans`` on at least
90 % of the configurations (its Specs: "Tolerance: >= 90%"); the contest loop must honour that
rule as the judge does, or no honest classifier (the best on its data gets 93.6 %) could pass
it. Everything the program prints is its output ("Do not add any print statements to your
solution, as this will cause your submission to fail"): a progress line besides the labels
changes their count.
"""

from __future__ import annotations

import pytest
from qhack_official import _script_line_ok

from quantum_codegen_eval.judges.qhack.checks import compare_script

LABELS = [1, -1] * 125
ACCURACY = {"func": "accuracy", "min": 0.9}


def _with_wrong(n: int) -> str:
    """The labels with the first ``n`` flipped."""
    return ",".join(str(-v if i < n else v) for i, v in enumerate(LABELS))


@pytest.mark.parametrize(("wrong", "ok"), [(0, True), (16, True), (24, True), (25, True),
                                           (26, False), (125, False)])
def test_accuracy_rule_needs_at_least_the_minimum(wrong, ok):
    want = ",".join(map(str, LABELS))
    got = _with_wrong(wrong)
    assert _script_line_ok(got, want, None, ACCURACY["min"]) is ok
    assert compare_script(got + "\n", want, ACCURACY)[0] is ok


def test_without_the_rule_every_token_must_match():
    want = ",".join(map(str, LABELS))
    assert _script_line_ok(want, want, None)
    assert not _script_line_ok(_with_wrong(1), want, None)
    assert not _script_line_ok(want + ",1", want, None, ACCURACY["min"])  # one value too many


@pytest.mark.parametrize("printed", [
    "epoch 1: accuracy 0.52\nepoch 2: accuracy 0.91\n{labels}\n",  # progress, then the labels
    "{labels}\ndone\n",
    "{labels},\n1\n",  # one label too many
])
def test_anything_printed_besides_the_labels_is_the_wrong_number_of_labels(printed):
    want = ",".join(map(str, LABELS))
    got = printed.format(labels=want)
    assert not _script_line_ok(got, want, None, ACCURACY["min"])
    ok, why = compare_script(got, want, ACCURACY)
    assert not ok and why.startswith("expected 250 values, got ")


def test_the_labels_alone_pass_whatever_the_line_ends():
    want = ",".join(map(str, LABELS))
    for got in (want, want + "\n", "\n" + want + "\n\n", want.replace(",", ", ")):
        assert _script_line_ok(got, want, None, ACCURACY["min"])
        assert compare_script(got, want, ACCURACY) == (True, "")
