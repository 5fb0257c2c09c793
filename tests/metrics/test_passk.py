"""pass@k against exact rational arithmetic, validation errors, bootstrap and partial credit."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pytest

from quantum_codegen_eval.metrics.passk import (
    PassAtK,
    partial_credit,
    pass_at_k,
    pass_at_k_ci,
    pass_at_k_per_problem,
)


def exact(n: int, c: int, k: int) -> Fraction:
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def test_matches_exact_binomials_up_to_n_1000():
    rng = random.Random(7)
    cases = [(1000, 1, 1), (1000, 0, 10), (1000, 999, 1000), (1000, 500, 100), (1000, 1, 999),
             (1000, 3, 1000), (1, 1, 1), (1, 0, 1), (200, 7, 50)]
    cases += [(n, rng.randint(0, n), rng.randint(1, n)) for n in
              (rng.randint(1, 1000) for _ in range(300))]
    worst = 0.0
    for n, c, k in cases:
        worst = max(worst, abs(pass_at_k(n, c, k).value - float(exact(n, c, k))))
    assert worst < 1e-12


def test_per_problem_and_mean():
    ns, cs = [10, 20, 30], [0, 5, 30]
    res = pass_at_k(ns, cs, 5, per_problem=True)
    assert isinstance(res, PassAtK)
    want = [float(exact(n, c, 5)) for n, c in zip(ns, cs, strict=True)]
    assert res.per_problem == pytest.approx(want, abs=1e-12)
    assert res.value == pytest.approx(sum(want) / 3, abs=1e-12)
    plain = pass_at_k(ns, cs, 5)
    assert isinstance(plain, PassAtK) and plain.per_problem == ()
    assert plain.value == float(plain) == res.value and plain.signature == res.signature
    assert f"{plain:.6f}" == f"{res.value:.6f}"
    assert res.signature.startswith("pass_at_k|k:5|estimator:chen2021|qce:")
    # a scalar n is broadcast over per-problem c
    assert pass_at_k(10, [1, 2], 1).value == pytest.approx(0.15)
    assert list(pass_at_k_per_problem(np.array([4, 4]), np.array([4, 0]), 2)) == [1.0, 0.0]


@pytest.mark.parametrize(("n", "c", "k", "message"), [
    ([10, 3], [1, 0], 5, "problem 1 has n=3 samples, fewer than k=5"),
    (3, 0, 5, "problem 0 has n=3 samples, fewer than k=5"),
    ([10, 10], [11, 0], 1, "problem 0 has c=11 correct out of only n=10"),
    ([10, -1], [0, 0], 1, "problem 1 has negative counts"),
    ([10, 10], [1.5, 0], 1, "problem 0 has non-integer c=1.5"),
    ([10, 10, 10], [1, 2], 1, "n has 3 problems but c has 2"),
    (10, 1, 0, "k must be a positive integer"),
    ([], [], 1, "no problems given"),
])
def test_bad_input_is_a_precise_error(n, c, k, message):
    with pytest.raises(ValueError, match=message):
        pass_at_k(n, c, k)


def test_c_zero_with_n_below_k_is_an_error_not_one():
    # the reference implementation returns 1.0 here (n - c < k)
    with pytest.raises(ValueError, match="fewer than k"):
        pass_at_k(2, 0, 5)


def test_bootstrap_ci_is_seeded_and_brackets_the_mean():
    ns, cs = [20] * 40, [i % 21 for i in range(40)]
    a = pass_at_k_ci(ns, cs, 5, n_boot=500, seed=3)
    b = pass_at_k_ci(ns, cs, 5, n_boot=500, seed=3)
    c = pass_at_k_ci(ns, cs, 5, n_boot=500, seed=4)
    assert a == b
    assert (a.low, a.high) != (c.low, c.high)
    assert a.low < a.value < a.high
    assert a.value == pytest.approx(pass_at_k(ns, cs, 5).value)
    wide = pass_at_k_ci(ns, cs, 5, n_boot=500, seed=3, level=0.99)
    assert wide.low <= a.low and wide.high >= a.high
    assert "n_boot:500|seed:3|level:0.95" in a.signature
    # all problems equal: the interval collapses
    flat = pass_at_k_ci([10] * 5, [3] * 5, 1, n_boot=100)
    assert flat.low == pytest.approx(flat.high) == pytest.approx(0.3)
    with pytest.raises(ValueError, match="level"):
        pass_at_k_ci(ns, cs, 5, level=1.5)


def test_partial_credit():
    assert partial_credit([3, 0, 2], [4, 4, 2]) == pytest.approx((0.75 + 0 + 1) / 3)
    # nested: per-problem mean first, so problems weigh the same
    assert partial_credit([[4, 0], [1]], [[4, 4], [2]]) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="sample 1: passed=5 of total=4"):
        partial_credit([1, 5], [4, 4])
    with pytest.raises(ValueError, match="problem 1"):
        partial_credit([[1], [1, 2]], [[2], [2]])
