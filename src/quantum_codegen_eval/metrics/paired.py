"""Paired comparison of two systems on the same problems: difference, interval, exact test, Holm.

The unit is the problem: system A and system B each have one value per problem (per-problem
pass@k), ``d_i = a_i - b_i``.

* **difference**: ``mean(d)`` (= pass@k of A minus pass@k of B);
* **interval**: percentile bootstrap of ``mean(d)``, resampling problems (the same resampled
  problems for both systems; :func:`.passk.bootstrap_mean_interval`);
* **p-value**: the paired sign-flip permutation test. Under H0 (per problem, the two systems'
  labels are exchangeable) every ``d_i`` is equally likely ``+d_i`` or ``-d_i``; the two-sided
  p-value is the share of the ``2^m`` sign vectors over the ``m`` non-zero differences whose
  ``|sum|`` reaches the observed ``|sum(d)|`` (zeros never change the sum). Computed exactly:
  by convolution when the differences lie on a lattice ``d_i = v_i / s`` with integer ``v_i``
  and ``s <= 1000`` (pass@1 of ``n`` samples per problem: ``s = n``; any number of problems up
  to 5e7 cells), else by enumeration for ``m <= EXACT_MAX``; beyond both, ``n_resamples`` seeded random sign vectors and
  ``p = (1 + hits) / (1 + n_resamples)`` (never 0; Phipson & Smyth 2010). With one sample per
  problem ``d_i`` is -1, 0 or 1, the sum counts discordant problems and the test is McNemar's
  exact test (a two-sided binomial test of the discordant pairs with p = 1/2);
* **Holm**: step-down adjustment across a family of ``m`` p-values, ``p_(i)`` sorted ascending:
  ``adj_(i) = max_{j <= i} min(1, (m - j + 1) p_(j))``.

>>> sign_flip_test([1, 1, 1, 0, -1]).p_value  # 3 of 4 discordant favour A: binomtest(3, 4)
0.625
>>> holm([0.01, 0.04, 0.03])
[0.03, 0.06, 0.06]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .passk import bootstrap_mean_interval

__all__ = ["EXACT_MAX", "PairedDifference", "SignFlipResult", "holm", "paired_difference",
           "sign_flip_test"]

#: exact enumeration up to this many non-zero differences (2^20 sign vectors)
EXACT_MAX = 20
_CHUNK = 1 << 16
_CELLS_PER_CHUNK = 1 << 22


@dataclass(frozen=True)
class SignFlipResult:
    """``method``: ``exact`` (all ``2^nonzero`` sign vectors) or ``monte-carlo`` (``resamples``
    seeded random vectors, ``seed``)."""

    statistic: float  #: sum of the differences
    p_value: float
    nonzero: int
    method: str
    resamples: int
    seed: int | None


def _tolerance(d: np.ndarray) -> float:
    return 1e-9 * max(1.0, float(np.abs(d).sum()))


def sign_flip_test(differences, *, exact_max: int = EXACT_MAX, n_resamples: int = 100_000,
                   seed: int = 0) -> SignFlipResult:
    """Two-sided paired sign-flip permutation test of ``mean(differences) == 0`` (module
    docstring). Ties of ``|sum|`` with the observed one count as reaching it."""
    d = np.asarray(differences, dtype=np.float64)
    if d.ndim != 1:
        raise ValueError("sign_flip_test: differences must be 1-d")
    if not np.all(np.isfinite(d)):
        raise ValueError("sign_flip_test: differences must be finite")
    nz = d[d != 0]
    observed = float(d.sum())
    m = nz.size
    if m == 0:
        return SignFlipResult(observed, 1.0, 0, "exact", 0, None)
    target = abs(observed) - _tolerance(nz)
    lattice = _lattice(nz)
    if lattice is not None:
        return SignFlipResult(observed, _lattice_p(lattice), m, "exact", 0, None)
    if m <= exact_max:
        hits = 0
        total = 1 << m
        bits = np.arange(m, dtype=np.int64)
        for start in range(0, total, _CHUNK):
            codes = np.arange(start, min(start + _CHUNK, total), dtype=np.int64)
            signs = 1 - 2 * ((codes[:, None] >> bits) & 1)  # each row one sign vector
            hits += int((np.abs(signs @ nz) >= target).sum())
        return SignFlipResult(observed, hits / total, m, "exact", total, None)
    rng = np.random.default_rng(seed)
    hits = 0
    chunk = max(1, _CELLS_PER_CHUNK // m)  # bounded memory whatever the number of problems
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        signs = rng.choice(np.array([-1.0, 1.0]), size=(size, m))
        hits += int((np.abs(signs @ nz) >= target).sum())
    return SignFlipResult(observed, (1 + hits) / (1 + n_resamples), m, "monte-carlo",
                          n_resamples, seed)


def _lattice(nz: np.ndarray) -> np.ndarray | None:
    """The differences as integers ``v = d * s`` for the smallest ``s <= _MAX_SCALE`` that
    makes them all integers (pass@1 of ``n`` samples: ``s = n``), when the exact distribution of
    the signed sum fits :data:`_MAX_CELLS`; else None."""
    a = np.abs(nz)
    for s in range(1, _MAX_SCALE + 1):
        v = np.rint(a * s)
        if np.all(np.abs(a * s - v) <= 1e-9 * s) and np.all(v > 0):
            if nz.size * (2 * v.sum() + 1) <= _MAX_CELLS:
                return np.rint(nz * s).astype(np.int64)
            return None
    return None


def _lattice_p(v: np.ndarray) -> float:
    """Exact two-sided p-value of the sign-flip test over signed integers ``v`` (observed sum
    ``sum(v)``), by convolution of the ``m`` two-point distributions ``{-|v_i|, +|v_i|}``
    (probability 1/2 each)."""
    total = int(np.abs(v).sum())
    probs = np.zeros(2 * total + 1)
    probs[total] = 1.0
    for x in np.abs(v):
        x = int(x)
        nxt = np.zeros_like(probs)
        nxt[:probs.size - x] += 0.5 * probs[x:]   # -x
        nxt[x:] += 0.5 * probs[:probs.size - x]   # +x
        probs = nxt
    sums = np.arange(-total, total + 1)
    return float(min(1.0, probs[np.abs(sums) >= abs(int(v.sum()))].sum()))


_MAX_SCALE = 1000
_MAX_CELLS = 50_000_000


@dataclass(frozen=True)
class PairedDifference:
    """A minus B over the same problems: ``difference`` with its bootstrap interval
    ``[low, high]`` and the sign-flip ``test``."""

    difference: float
    low: float
    high: float
    level: float
    n_boot: int
    seed: int
    problems: int
    test: SignFlipResult


def paired_difference(a, b, *, n_boot: int = 10_000, seed: int = 0, level: float = 0.95,
                      n_resamples: int = 100_000) -> PairedDifference:
    """Compare per-problem values ``a`` and ``b`` (same problems, same order)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1 or not a.size:
        raise ValueError(f"paired_difference: need two equal-length non-empty 1-d arrays, got "
                         f"{a.shape} and {b.shape}")
    d = a - b
    low, high = bootstrap_mean_interval(d, n_boot=n_boot, seed=seed, level=level)
    return PairedDifference(float(d.mean()), low, high, level, n_boot, seed, int(d.size),
                            sign_flip_test(d, n_resamples=n_resamples, seed=seed))


def holm(p_values) -> list[float]:
    """Holm-adjusted p-values, in the order given (module docstring)."""
    p = np.asarray(p_values, dtype=np.float64)
    if p.ndim != 1 or np.any((p < 0) | (p > 1)):
        raise ValueError("holm: p-values must be a 1-d sequence in [0, 1]")
    m = p.size
    order = np.argsort(p, kind="stable")
    adjusted = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * float(p[i])))
        adjusted[i] = running
    return [float(x) for x in adjusted]
