"""metrics.paired against references: scipy's binomial test (McNemar), a brute-force sign-flip
enumeration, a plain bootstrap loop, scipy.stats.bootstrap, and Holm by hand."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from quantum_codegen_eval.metrics.paired import (
    EXACT_MAX,
    holm,
    paired_difference,
    sign_flip_test,
)
from quantum_codegen_eval.metrics.passk import bootstrap_mean_interval, pass_at_k_ci


def _brute_force(d):
    d = np.asarray(d, dtype=float)
    nz = d[d != 0]
    obs = abs(d.sum())
    hits = sum(abs(np.dot(signs, nz)) >= obs - 1e-9
               for signs in itertools.product((-1, 1), repeat=nz.size))
    return hits / 2 ** nz.size


@pytest.mark.parametrize("seed", range(12))
def test_one_sample_per_problem_is_mcnemar_exact(seed):
    rng = np.random.default_rng(seed)
    problems = int(rng.integers(1, 400))
    a = rng.random(problems) < rng.random()
    b = rng.random(problems) < rng.random()
    result = paired_difference(a.astype(float), b.astype(float), n_boot=200, seed=seed)
    only_a, only_b = int((a & ~b).sum()), int((~a & b).sum())
    expected = stats.binomtest(only_a, only_a + only_b, 0.5).pvalue if only_a + only_b else 1.0
    assert result.test.method == "exact"
    assert result.test.nonzero == only_a + only_b
    assert result.test.p_value == pytest.approx(expected, rel=1e-9, abs=1e-15)


def test_lattice_matches_brute_force_on_pass_at_k_differences():
    rng = np.random.default_rng(3)
    for _ in range(20):
        n = int(rng.integers(1, 8))
        d = (rng.integers(0, n + 1, 12) - rng.integers(0, n + 1, 12)) / n  # pass@1 of n samples
        assert sign_flip_test(d).p_value == pytest.approx(_brute_force(d), abs=1e-12)


def test_enumeration_off_the_lattice_matches_brute_force():
    rng = np.random.default_rng(4)
    d = rng.random(13) - 0.4  # irrational-looking differences: enumeration, not convolution
    result = sign_flip_test(d)
    assert result.method == "exact" and result.resamples == 2 ** 13
    assert result.p_value == pytest.approx(_brute_force(d), abs=1e-12)


def test_beyond_exact_is_seeded_monte_carlo_and_stated():
    rng = np.random.default_rng(5)
    d = rng.random(14) - 0.5
    first = sign_flip_test(d, exact_max=10, n_resamples=20_000, seed=1)
    again = sign_flip_test(d, exact_max=10, n_resamples=20_000, seed=1)
    assert first == again and first.method == "monte-carlo" and first.resamples == 20_000
    exact = sign_flip_test(d)  # 2^14 sign vectors, the reference
    assert exact.method == "exact" and EXACT_MAX >= 14
    assert abs(first.p_value - exact.p_value) < 4 * np.sqrt(0.25 / 20_000) + 1e-4
    assert first.p_value > 0


def test_zero_differences_give_p_one():
    assert sign_flip_test([0.0, 0.0]).p_value == 1.0
    assert sign_flip_test([0.5, -0.5]).p_value == 1.0


def test_holm_by_hand():
    # p sorted: 0.01 (x4 = 0.04), 0.02 (x3 = 0.06), 0.03 (x2 = 0.06), 0.20 (x1 = 0.20)
    assert holm([0.03, 0.20, 0.01, 0.02]) == pytest.approx([0.06, 0.20, 0.04, 0.06])
    # monotone: a later step never falls below an earlier one; capped at 1
    assert holm([0.04, 0.045]) == pytest.approx([0.08, 0.08])
    assert holm([0.9, 0.8]) == pytest.approx([1.0, 1.0])
    with pytest.raises(ValueError):
        holm([1.5])


def test_bootstrap_equals_a_plain_loop():
    values = np.array([0.0, 0.2, 1.0, 1.0, 0.4, 0.0, 0.6])
    low, high = bootstrap_mean_interval(values, n_boot=500, seed=7)
    rng = np.random.default_rng(7)
    idx = rng.integers(0, values.size, size=(500, values.size))
    means = [float(np.mean([values[j] for j in row])) for row in idx]
    assert (low, high) == pytest.approx(tuple(np.quantile(means, [0.025, 0.975])))
    ci = pass_at_k_ci([5] * 4, [0, 1, 5, 5], 1, n_boot=500, seed=7)  # the same function inside
    assert (ci.low, ci.high) == pytest.approx(
        bootstrap_mean_interval([0, 0.2, 1, 1], n_boot=500, seed=7))


def test_paired_interval_agrees_with_scipy_bootstrap():
    rng = np.random.default_rng(11)
    a, b = rng.random(60), rng.random(60) * 0.8
    mine = paired_difference(a, b, n_boot=20_000, seed=2)
    ref = stats.bootstrap((a - b,), np.mean, n_resamples=20_000, method="percentile",
                          random_state=np.random.default_rng(3)).confidence_interval
    width = mine.high - mine.low
    assert mine.difference == pytest.approx(float(np.mean(a - b)))
    assert mine.low == pytest.approx(ref.low, abs=0.05 * width)
    assert mine.high == pytest.approx(ref.high, abs=0.05 * width)


def test_paired_resamples_problems_jointly():
    """A and B move together per problem: the paired interval is far narrower than the
    unpaired one (the reason an unpaired test on paired data is wrong)."""
    rng = np.random.default_rng(0)
    base = rng.random(80)
    a, b = base, np.clip(base - 0.05, 0, 1)
    paired = paired_difference(a, b, n_boot=2000, seed=0)
    lo_a, hi_a = bootstrap_mean_interval(a, n_boot=2000, seed=0)
    assert paired.high - paired.low < 0.2 * (hi_a - lo_a)
    assert paired.test.method == "monte-carlo" and paired.test.p_value == 1 / (1 + 100_000)


def test_bad_input():
    with pytest.raises(ValueError):
        paired_difference([1.0, 0.0], [1.0])
    with pytest.raises(ValueError):
        sign_flip_test([np.nan])


def test_the_docs_example_paired_versus_unpaired():
    """docs/compare.md: B solves 30 of 60, A the same 30 plus 8 more."""
    b = np.array([1.0] * 30 + [0.0] * 30)
    a = b.copy()
    a[30:38] = 1.0
    assert sign_flip_test(a - b).p_value == pytest.approx(2 / 2 ** 8)
    assert stats.fisher_exact([[38, 22], [30, 30]]).pvalue == pytest.approx(0.197, abs=1e-3)
    assert stats.ttest_ind(a, b, equal_var=False).pvalue == pytest.approx(0.143, abs=2e-3)
