"""Partial credit by fidelity: the mean over problems, with its bootstrap interval.

A sample's fidelity is its judge's (QCoder: the mean over all tests of each test's state or
process fidelity; docs/metrics/fidelity.md). A problem's fidelity is the mean over its samples
that have one; a set of problems scores the mean over problems, with the percentile bootstrap
interval over problems of :func:`.passk.bootstrap_mean_interval` (the one of pass@k's intervals).

>>> r = mean_fidelity([[1.0, 0.5], [0.0], [1.0]], n_boot=200, seed=0)
>>> (r.value, r.problems, r.samples, r.low <= r.value <= r.high)
(0.5833333333333334, 3, 4, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .passk import bootstrap_mean_interval
from .results import MappingResult
from .signature import make_signature

__all__ = ["MeanFidelity", "mean_fidelity"]


@dataclass(frozen=True)
class MeanFidelity(MappingResult):
    """The mean over problems of the per-problem mean fidelity, and its bootstrap interval."""

    value: float
    low: float
    high: float
    problems: int
    samples: int
    level: float
    n_boot: int
    seed: int
    signature: str = ""


def mean_fidelity(per_problem: Sequence[Sequence[float]], *, n_boot: int = 1000, seed: int = 0,
                  level: float = 0.95) -> MeanFidelity:
    """``per_problem``: each problem's sample fidelities (each in [0, 1], at least one)."""
    if not per_problem or any(not len(xs) for xs in per_problem):
        raise ValueError("mean_fidelity: need at least one problem, each with a sample fidelity")
    flat = np.asarray([x for xs in per_problem for x in xs], dtype=np.float64)
    if not np.all((flat >= 0) & (flat <= 1)):
        raise ValueError("mean_fidelity: fidelities must lie in [0, 1]")
    values = np.asarray([float(np.mean(xs)) for xs in per_problem])
    low, high = bootstrap_mean_interval(values, n_boot=n_boot, seed=seed, level=level)
    sig = make_signature("mean_fidelity", unit="problem", bootstrap="percentile", n_boot=n_boot,
                         seed=seed, level=level)
    return MeanFidelity(float(values.mean()), float(low), float(high), int(values.size),
                        int(flat.size), level, n_boot, seed, sig)
