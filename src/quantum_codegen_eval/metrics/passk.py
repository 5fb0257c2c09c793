"""pass@k: the unbiased estimator of Chen et al. (2021), bootstrap intervals, partial credit.

For one problem with ``n`` samples of which ``c`` pass,
``pass@k = 1 - C(n-c, k) / C(n, k) = 1 - prod_{i=n-c+1}^{n} (1 - k / i)``;
the product form avoids huge binomials. Over problems the score is the mean.

>>> r = pass_at_k(10, 3, 1)
>>> round(r.value, 12), round(float(r), 12), r.signature.split("|")[:3]
(0.3, 0.3, ['pass_at_k', 'k:1', 'estimator:chen2021'])
>>> round(pass_at_k([10, 10], [0, 5], 5).value, 6)
0.498016
>>> pass_at_k([10, 10], [0, 5], 5, per_problem=True).per_problem
(0.0, 0.996031746031746)
>>> pass_at_k(3, 1, 5)
Traceback (most recent call last):
...
ValueError: pass@5: problem 0 has n=3 samples, fewer than k=5
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .results import MappingResult
from .signature import make_signature

__all__ = ["PassAtK", "PassAtKCI", "bootstrap_mean_interval", "pass_at_k", "pass_at_k_ci",
           "pass_at_k_per_problem", "partial_credit"]


@dataclass(frozen=True)
class PassAtK(MappingResult):
    """Mean pass@k over problems (``value``; ``float(result)``), the per-problem values (only
    when asked for) and the signature."""

    k: int
    value: float
    per_problem: tuple[float, ...] = field(default=())
    signature: str = ""

    def __float__(self) -> float:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec) if spec else str(self)


@dataclass(frozen=True)
class PassAtKCI(MappingResult):
    """A bootstrap confidence interval over problems for mean pass@k."""

    k: int
    value: float
    low: float
    high: float
    level: float
    n_boot: int
    seed: int
    signature: str


def _as_int_array(values: int | Sequence[int] | np.ndarray, what: str) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(values))
    if arr.ndim != 1:
        raise ValueError(f"pass@k: {what} must be a scalar or a 1-d sequence, got shape {arr.shape}")
    if arr.size and arr.dtype.kind == "f":
        bad = np.flatnonzero(arr != np.floor(arr))
        if bad.size:
            raise ValueError(f"pass@k: problem {bad[0]} has non-integer {what}={float(arr[bad[0]])!r}")
        arr = arr.astype(np.int64)
    elif arr.size and arr.dtype.kind not in "iub":
        raise ValueError(f"pass@k: {what} must be integers, got dtype {arr.dtype}")
    return arr.astype(np.int64)


def _validate(n, c, k) -> tuple[np.ndarray, np.ndarray, int]:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"pass@k: k must be a positive integer, got {k!r}")
    k = int(k)
    ns, cs = _as_int_array(n, "n"), _as_int_array(c, "c")
    if ns.size == 1 and cs.size > 1:
        ns = np.full_like(cs, ns[0])
    if ns.shape != cs.shape:
        raise ValueError(f"pass@k: n has {ns.size} problems but c has {cs.size}")
    if ns.size == 0:
        raise ValueError("pass@k: no problems given")
    for i in range(ns.size):
        ni, ci = int(ns[i]), int(cs[i])
        if ni < 0 or ci < 0:
            raise ValueError(f"pass@{k}: problem {i} has negative counts n={ni}, c={ci}")
        if ci > ni:
            raise ValueError(f"pass@{k}: problem {i} has c={ci} correct out of only n={ni} samples")
        if ni < k:
            raise ValueError(f"pass@{k}: problem {i} has n={ni} samples, fewer than k={k}")
    return ns, cs, k


_TERMS = 1_000_000  # more factors than this: the k-factor or log-gamma form


def _estimate(n: int, c: int, k: int) -> float:
    if n - c < k:
        return 1.0
    if c <= _TERMS:
        return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1, dtype=np.float64)))
    # Huge counts (the product above would allocate c floats): the same ratio
    # C(n-c, k) / C(n, k) as k factors, or through log-gamma when k is huge too.
    if k <= _TERMS:
        j = np.arange(k, dtype=np.float64)
        return float(1.0 - np.prod((n - c - j) / (n - j)))
    return float(1.0 - math.exp(math.lgamma(n - c + 1) - math.lgamma(n - c - k + 1)
                                - math.lgamma(n + 1) + math.lgamma(n - k + 1)))


def pass_at_k_per_problem(n, c, k: int) -> np.ndarray:
    """pass@k of each problem, as a float array (validated like :func:`pass_at_k`)."""
    ns, cs, k = _validate(n, c, k)
    return np.array([_estimate(int(a), int(b), k) for a, b in zip(ns, cs, strict=True)], dtype=np.float64)


def pass_at_k(n, c, k: int, *, per_problem: bool = False) -> PassAtK:
    """Mean unbiased pass@k over problems.

    ``n`` and ``c`` are the samples drawn and the samples correct, each a scalar or one value
    per problem (a scalar ``n`` is broadcast). Returns a :class:`PassAtK`: the mean as ``value``
    (and ``float(result)``), the signature, and with ``per_problem=True`` the per-problem values.
    Raises ``ValueError`` naming the problem index when ``n < k``, ``c > n`` or a count is
    negative or not an integer.
    """
    values = pass_at_k_per_problem(n, c, k)
    return PassAtK(k=int(k), value=float(values.mean()),
                   per_problem=tuple(float(v) for v in values) if per_problem else (),
                   signature=make_signature("pass_at_k", k=int(k), estimator="chen2021"))


def pass_at_k_ci(n, c, k: int, *, n_boot: int = 1000, seed: int = 0,
                 level: float = 0.95) -> PassAtKCI:
    """Percentile bootstrap interval for mean pass@k, resampling problems with replacement.

    >>> ci = pass_at_k_ci([5, 5, 5, 5], [0, 1, 5, 5], 1, n_boot=200, seed=0)
    >>> (ci.value, ci.low <= ci.value <= ci.high)
    (0.55, True)
    """
    if not 0 < level < 1:
        raise ValueError(f"pass_at_k_ci: level must be in (0, 1), got {level}")
    if n_boot < 1:
        raise ValueError(f"pass_at_k_ci: n_boot must be positive, got {n_boot}")
    values = pass_at_k_per_problem(n, c, k)
    low, high = bootstrap_mean_interval(values, n_boot=n_boot, seed=seed, level=level)
    sig = make_signature("pass_at_k_ci", k=int(k), estimator="chen2021", bootstrap="percentile",
                         n_boot=n_boot, seed=seed, level=level)
    return PassAtKCI(k=int(k), value=float(values.mean()), low=float(low), high=float(high),
                     level=level, n_boot=n_boot, seed=seed, signature=sig)


def bootstrap_mean_interval(values, *, n_boot: int = 1000, seed: int = 0,
                            level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values`` (one value per problem):
    ``n_boot`` resamples of the problems with replacement from ``numpy.random.default_rng(seed)``
    (one ``integers(0, P, size=(n_boot, P))`` draw), the ``(1-level)/2`` and ``(1+level)/2``
    quantiles (numpy's default linear interpolation) of the resampled means. The one interval
    of the package: :func:`pass_at_k_ci` uses it on per-problem pass@k, ``metrics.paired`` on
    per-problem differences (the same problems resampled for both systems: paired).
    """
    if not 0 < level < 1:
        raise ValueError(f"bootstrap: level must be in (0, 1), got {level}")
    if n_boot < 1:
        raise ValueError(f"bootstrap: n_boot must be positive, got {n_boot}")
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 1 or not values.size:
        raise ValueError("bootstrap: need a non-empty 1-d array of per-problem values")
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, values.size, size=(n_boot, values.size))
    means = values[idx].mean(axis=1)
    alpha = (1 - level) / 2
    low, high = np.quantile(means, [alpha, 1 - alpha])
    return float(low), float(high)


def partial_credit(passed: Sequence[int] | Sequence[Sequence[int]],
                   total: Sequence[int] | Sequence[Sequence[int]]) -> float:
    """Mean fraction of tests passed.

    Flat sequences are one entry per sample; nested sequences (one list of samples per problem)
    are averaged within each problem first, then over problems, so every problem weighs the same.

    >>> partial_credit([3, 0, 2], [4, 4, 2])
    0.5833333333333334
    >>> partial_credit([[4, 0], [1]], [[4, 4], [2]])
    0.5
    """
    if len(passed) != len(total):
        raise ValueError(f"partial_credit: {len(passed)} passed counts but {len(total)} totals")
    if not len(passed):
        raise ValueError("partial_credit: nothing to score")
    nested = [isinstance(p, (list, tuple, np.ndarray)) for p in passed]
    if any(nested):
        if not all(nested):
            raise ValueError("partial_credit: mix of nested and flat entries")
        return float(np.mean([_fraction(p, t, f"problem {i}")
                              for i, (p, t) in enumerate(zip(passed, total, strict=True))]))
    return _fraction(passed, total, "samples")


def _fraction(passed, total, where: str) -> float:
    if len(passed) != len(total) or not len(passed):
        raise ValueError(f"partial_credit: {where}: {len(passed)} passed counts, {len(total)} totals")
    fracs = []
    for j, (p, t) in enumerate(zip(passed, total, strict=True)):
        if t <= 0 or p < 0 or p > t:
            raise ValueError(f"partial_credit: {where}, sample {j}: passed={p} of total={t}")
        fracs.append(p / t)
    return float(np.mean(fracs))
