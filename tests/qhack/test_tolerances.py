"""2022 tolerances as the statements state them: the error relative to the expected value,
boundary included (``|got - exp| <= rel * |exp|``; ``<= rel`` when ``exp == 0``);
``math.isclose`` measured it against the larger of the two values."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.judges.qhack.checks import compare_script

REL = {"func": "tokens", "rel": 0.05}


@pytest.mark.parametrize("got, ok", [
    ("1.052", False),   # 5.2 % too high: math.isclose (4.9 % of 1.052) passed it
    ("1.05", True),     # the boundary itself passes
    ("0.95", True), ("0.9499", False), ("1.0", True), ("nan", False), ("inf", False),
])
def test_relative_to_the_expected_value(got, ok):
    assert compare_script(got + "\n", "1.0", REL)[0] is ok


def test_zero_expected_is_absolute():
    assert compare_script("0.05", "0", REL)[0]
    assert not compare_script("0.0501", "0", REL)[0]


def test_accuracy_rule_needs_every_label():
    rule = {"func": "accuracy", "min": 0.9}
    labels = " ".join(["1"] * 20)
    assert compare_script(labels, labels, rule)[0]
    assert not compare_script(" ".join(["1"] * 19), labels, rule)[0]
    assert not compare_script(" ".join(["1"] * 21), labels, rule)[0]


@pytest.mark.parametrize("got", ["1e999999999", "-1e-999999999", "1_0", "0x10", "--1"])
def test_odd_numbers_are_decided(got):
    assert compare_script(got, "1.0", REL)[0] is False
