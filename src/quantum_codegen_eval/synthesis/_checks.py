"""The checks a candidate passes before it runs, cheapest first; each rejection has one reason.

* ``format``: no instruction or no fenced code block in the answer;
* ``syntax``: the code does not parse;
* ``hallucinated_api``: it names a PennyLane attribute or device that the installed release does
  not have (:func:`..metrics.hallucination.find_hallucinations` for that version: statuses
  ``hallucinated``, ``removed``, ``too_new``);
* ``duplicate``: a near-duplicate of an entry of the existing corpus
  (:class:`..neardup.NearDuplicateIndex`): both normalise to the same text under the PennySynth
  builder's normalisation (local names, formatting, comments, docstrings, string and float
  literals erased), or the **Jaccard similarity** ``|A ∩ B| / |A ∪ B|`` of their sets ``A``,
  ``B`` of normalised token 6-grams (every local name one placeholder: the n-grams
  ``qce contamination`` compares, :func:`..neardup.ngrams`) is at or above ``near_duplicate``
  (default ``0.5``, measured on the 2,057-entry docstring corpus, docs/benchmarks/pennysynth.md
  "Near-duplicates": renamed and reformatted copies score 1; a copy with one line added scores
  at or above 0.5 for 93 % of the entries, one with two independent statements swapped for 99 %;
  two different programs of one PennyLane idiom scored 0.38-0.50, below it). The rejection
  record names the matched entry (``duplicate_of``) and the score (``similarity``);
* ``contaminated``: ``qce contamination`` flags it for a problem of a benchmark it is checked
  against (it holds that problem's reference or template).

Then the sandbox run (``failed``, ``timeout``). Near-duplicates among the run's own passed
candidates, by the same rule, are found when the dataset is written: the first of each cluster (in
request order) is kept, every other one is counted as a ``duplicate`` of it.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Mapping
from typing import Any

from ..metrics.hallucination import find_hallucinations
from ..neardup import NearDuplicateIndex

REASONS = ("format", "syntax", "hallucinated_api", "duplicate", "contaminated", "failed",
           "timeout")
_BAD_API = ("hallucinated", "removed", "too_new")


def syntax_error(code: str) -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return f"{type(exc).__name__}: {exc}"[:300]
    return ""


def bad_api(code: str, pennylane_version: str) -> str:
    """The PennyLane names ``code`` uses that ``pennylane_version`` does not have, or ''."""
    found = [f"{f.name} ({f.status})" for f in find_hallucinations(code, pennylane_version)
             if f.status in _BAD_API]
    return ", ".join(found)[:300]


def contaminated(candidates: list[tuple[str, str]], against: Mapping[str, dict[str, Any]]
                 ) -> dict[str, str]:
    """candidate id -> ``benchmark/problem`` it is flagged for (the first), over every benchmark
    of ``against`` (name -> its problems)."""
    from ..contamination import contamination

    out: dict[str, str] = {}
    if not candidates:
        return out
    for name, problems in against.items():
        report = contamination("synthesized candidates", name, problems=problems,
                               entries=candidates)
        for m in report.matches:
            out.setdefault(m.entry, f"{name}/{m.problem_id} ({m.kind}, {m.score:.2f})")
    return out


def duplicate(code: str, index: NearDuplicateIndex) -> tuple[str, dict[str, Any]]:
    """('' or the rejection message, the rejection record's fields: the matched entry's id
    ``duplicate_of`` and the ``similarity``) of ``code`` against ``index``."""
    hit = index.match(code)
    if hit is None:
        return "", {}
    entry, score = hit
    return (f"near-duplicate of {entry} (similarity {score:.3f} >= {index.threshold:g})",
            {"duplicate_of": entry, "similarity": round(score, 4)})
