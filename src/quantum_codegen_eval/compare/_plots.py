"""The comparison's figures: grouped bars with interval whiskers (pass@k per group, one bar per
system) and stacked bars (error classes, statuses). matplotlib, Agg backend."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._tables import Interval


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def grouped_bars(title: str, groups: Sequence[str], systems: Sequence[str],
                 values: Sequence[Sequence[Interval | None]], ylabel: str, xlabel: str = "") -> Any:
    """``values[s][g]``: system ``s`` in group ``g`` (0-1), drawn in %; a missing value is left
    out and marked "n/a"."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(5.0, 1.1 * len(groups) * max(1, len(systems)) / 2 + 2), 3.8))
    width = 0.8 / max(len(systems), 1)
    for s, name in enumerate(systems):
        xs = [g + (s - (len(systems) - 1) / 2) * width for g in range(len(groups))]
        for x, v in zip(xs, values[s], strict=True):
            if v is None:
                ax.text(x, 1, "n/a", ha="center", va="bottom", fontsize=7, rotation=90)
            elif v.high == 0:  # an empty bar would read as missing
                ax.text(x, 1, "0", ha="center", va="bottom", fontsize=7)
        pts = [(x, v) for x, v in zip(xs, values[s], strict=True) if v is not None]
        if not pts:
            ax.bar([], [], width, label=name)
            continue
        heights = [100 * v.value for _, v in pts]
        err = [[100 * (v.value - v.low) for _, v in pts], [100 * (v.high - v.value) for _, v in pts]]
        ax.bar([x for x, _ in pts], heights, width, yerr=err, capsize=3, label=name,
               error_kw={"elinewidth": 1, "ecolor": "0.2"})
    if len(groups) > 1 and groups[-1] == "all":  # the overall bars apart from the groups
        ax.axvline(len(groups) - 1.5, color="0.6", linestyle="--", linewidth=0.8)
    ax.set_xticks(range(len(groups)), list(groups))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 105)
    ax.set_title(title)
    ax.legend(fontsize=8, ncols=min(len(systems), 4), loc="upper center",
              bbox_to_anchor=(0.5, -0.14), frameon=False)
    fig.tight_layout()
    return fig


def stacked_bars(title: str, systems: Sequence[str], categories: Sequence[str],
                 shares: Sequence[Sequence[float]], ylabel: str) -> Any:
    """``shares[s][c]`` (0-1) stacked per system, drawn in %."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(4.5, 1.0 * len(systems) + 3), 3.8))
    bottoms = [0.0] * len(systems)
    # success green; the other categories take the rest of tab10 (green left out)
    palette = [plt.get_cmap("tab10")(i) for i in (0, 1, 3, 4, 5, 6, 7, 8, 9)]
    others = iter(palette * (1 + len(categories) // len(palette)))
    for c, cat in enumerate(categories):
        heights = [100 * shares[s][c] for s in range(len(systems))]
        color = "tab:green" if cat == "AC" else next(others)
        ax.bar(range(len(systems)), heights, 0.6, bottom=bottoms, label=cat, color=color)
        bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
    for x, top in enumerate(bottoms):
        if top == 0:
            ax.text(x, 2, "none", ha="center", va="bottom", fontsize=8, color="0.3")
    ax.set_xticks(range(len(systems)), list(systems))
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 100)
    ax.set_title(title)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    fig.tight_layout()
    return fig
