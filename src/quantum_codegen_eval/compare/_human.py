"""The "human submissions" row of a QCoder comparison, from the dataset's ``submissions`` config.

Each row of that config is one submitted version: ``problem``, ``user``, ``submission_order``
(the contest's order), ``version_index`` (its place in that user's history of that problem, in
submission order) and ``result`` (the contest judge's status). A user's **history** of a problem
is their versions in submission order. ``versions`` chooses which version of each history
counts: ``first`` (the first submission: a single attempt, what a model's single sample is
compared with; the default), ``last`` (where the user stopped) or ``all`` (every version).

The rates are per problem, then averaged over problems (macro), like the model rows: for each
problem, the share of its counted versions with each status; the row is the mean over the
problems that have any counted version and are in the compared problem set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

VERSIONS = ("first", "last", "all")


@dataclass(frozen=True)
class HumanRow:
    """Status shares (0-1) averaged over ``problems``; ``users`` histories, ``versions`` counted."""

    rates: dict[str, float]
    problems: int
    users: int
    versions: int
    which: str


def human_rates(rows: Iterable[Mapping[str, Any]], problems: Iterable[str],
                versions: str = "first") -> HumanRow | None:
    """The human row over ``problems`` (None when no submission is for one of them)."""
    if versions not in VERSIONS:
        raise ValueError(f"human versions must be one of {', '.join(VERSIONS)}, got {versions!r}")
    wanted = set(problems)
    histories: dict[tuple[str, str], list[tuple[int, int, str]]] = {}
    for i, row in enumerate(rows):
        pid = str(row["problem"])
        if pid in wanted:
            order = int(row.get("submission_order", i))
            histories.setdefault((pid, str(row["user"])), []).append(
                (order, i, str(row["result"]).strip()))
    counted: dict[str, list[str]] = {}
    for (pid, _user), items in histories.items():
        items.sort()
        chosen = items[:1] if versions == "first" else items[-1:] if versions == "last" else items
        counted.setdefault(pid, []).extend(r for _, _, r in chosen)
    if not counted:
        return None
    statuses = sorted({r for rs in counted.values() for r in rs})
    rates = {st: sum(rs.count(st) / len(rs) for rs in counted.values()) / len(counted)
             for st in statuses}
    return HumanRow(rates, len(counted), len(histories), sum(map(len, counted.values())), versions)
