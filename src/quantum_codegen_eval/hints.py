""""Did you mean ...?": the closest known names to a misspelled one (``difflib``).

>>> did_you_mean("evalute", ["build", "evaluate", "judge"])
"; did you mean 'evaluate'?"
>>> did_you_mean("xyz", ["build", "evaluate"])
''
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def close_matches(word: str, choices: Iterable[str], n: int = 3) -> list[str]:
    """The known names closest to ``word`` (case-insensitive), best first."""
    choices = list(choices)
    lowered = {c.lower(): c for c in choices}
    return [lowered[m] for m in difflib.get_close_matches(str(word).lower(), list(lowered), n=n,
                                                          cutoff=0.6)]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` (or ``'x' or 'y'``) for a message's end; empty when nothing
    is close."""
    matches = close_matches(word, choices, n=2)
    if not matches:
        return ""
    return "; did you mean " + " or ".join(repr(m) for m in matches) + "?"
