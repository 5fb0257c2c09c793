"""Retrieval consistency per group (QHack: per year): the figure the paper reads to choose its
retrieval backbone.

Per group: the number of prompts, the mean of each prompt's **top score** (the best similarity
found for it, also when below the threshold; a prompt with no hit counts as 0), its quantiles
(numpy's default linear interpolation), a histogram over ten bins of width 0.1 (the last one
closed, ``[0.9, 1.0]``), and the **fallback rate**, the share of prompts whose top score is
below the threshold (plain prompts).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

BINS = 10


@dataclass(frozen=True)
class GroupConsistency:
    group: str
    prompts: int
    mean_top: float
    quantiles: dict[str, float]  #: min, p25, median, p75, max of the top scores
    histogram: list[int]  #: counts over the ten bins of width 0.1
    fallbacks: int

    @property
    def fallback_rate(self) -> float:
        return self.fallbacks / self.prompts if self.prompts else 0.0


@dataclass(frozen=True)
class Consistency:
    threshold: float
    groups: list[GroupConsistency]  #: one per group, then "all" (when there are several)

    def to_dict(self) -> dict[str, Any]:
        return {"threshold": self.threshold,
                "groups": [{**asdict(g), "fallback_rate": round(g.fallback_rate, 4)}
                           for g in self.groups]}

    def to_markdown(self) -> str:
        out = [f"# Retrieval consistency (threshold {self.threshold:g})", "",
               "| group | prompts | mean top score | min | p25 | median | p75 | max | fallback rate |",
               "|---|---|---|---|---|---|---|---|---|"]
        for g in self.groups:
            q = g.quantiles
            out.append(f"| {g.group} | {g.prompts} | {g.mean_top:.3f} | {q['min']:.3f} | "
                       f"{q['p25']:.3f} | {q['median']:.3f} | {q['p75']:.3f} | {q['max']:.3f} | "
                       f"{g.fallback_rate:.1%} |")
        out += ["", "Top-score histogram (bins of 0.1 from 0 to 1):", ""]
        out += [f"- {g.group}: {' '.join(map(str, g.histogram))}" for g in self.groups]
        return "\n".join(out) + "\n"


def _group(name: str, rows: list[tuple[float, bool]]) -> GroupConsistency:
    tops = np.array([t for t, _ in rows], dtype=float)
    p = np.percentile(tops, [0, 25, 50, 75, 100])
    hist = [0] * BINS
    for t in tops:  # decimal-safe: 0.7 is in [0.7, 0.8), whatever its binary value
        hist[min(BINS - 1, max(0, int(np.floor(round(float(t) * BINS, 9)))))] += 1
    return GroupConsistency(name, len(rows), float(tops.mean()),
                            dict(zip(("min", "p25", "median", "p75", "max"),
                                     (float(x) for x in p), strict=True)),
                            hist, sum(fb for _, fb in rows))


def consistency(prompts: Iterable[Any], threshold: float) -> Consistency:
    """The report of :class:`~._build.RagPrompt` s (``group``, ``top_score``, ``fallback``)."""
    by: dict[str, list[tuple[float, bool]]] = {}
    every: list[tuple[float, bool]] = []
    for p in prompts:
        row = (p.top_score or 0.0, p.fallback)
        by.setdefault(p.group, []).append(row)
        every.append(row)
    if not every:
        raise ValueError("retrieval consistency: no prompts")
    groups = [_group(g, rows) for g, rows in sorted(by.items())]
    return Consistency(threshold, groups if len(groups) == 1 else [*groups, _group("all", every)])
