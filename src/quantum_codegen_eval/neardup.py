"""Code compared as normalised placeholder token n-grams, and near-duplicate search over them.

One representation serves ``qce contamination`` and ``synthesize``'s duplicate check:

* :func:`normalised`: the PennySynth builder's dedup normalisation
  (:func:`quantum_codegen_eval.loaders.pennysynth.normalise`: local names renamed, formatting,
  comments, docstrings, string and float values erased);
* :func:`ngrams`: the token n-grams of that text, every local name written as one placeholder
  ``v`` (so renaming, and reordering definitions, cannot hide a copy).

A **near-duplicate** (:class:`NearDuplicateIndex`): two programs whose normalised texts are equal
(score 1), or the **Jaccard similarity of their n-gram sets**, ``|A ∩ B| / |A ∪ B|``, is at or
above a threshold. The defaults (``n = 6`` tokens, threshold ``0.5``) were measured on the corpus
the package builds offline (docs/benchmarks/pennysynth.md, "Near-duplicates"; timing/neardup.py):
renamed and reformatted copies of its entries score 1, copies with one line added score at or
above 0.5 for 93 % of them, copies with two independent statements swapped for 99 %, and
different programs of one PennyLane idiom scored 0.38-0.50, below it.

The search is exact and cheap against a corpus of many thousand entries: an inverted index from
n-gram to entries, probed only with the candidate's rarest ``|A| - ceil(t |A|) + 1`` n-grams
(prefix filtering: an entry sharing none of them shares fewer than ``t |A|`` n-grams with the
candidate, so its Jaccard similarity is below ``t``), and only entries whose size can reach
``t`` (``t |A| <= |B| <= |A| / t``) are scored.

>>> index = NearDuplicateIndex()
>>> index.add("e1", "import pennylane as qml\\nqml.Hadamard(wires=0)\\nqml.CNOT(wires=[0, 1])\\n")
>>> index.match("import pennylane as qml\\nqml.Hadamard(wires=0)\\nqml.CNOT(wires=[0, 1])\\n")
('e1', 1.0)
"""

from __future__ import annotations

import math
import re

#: n-gram length and Jaccard threshold of the near-duplicate rule (measured: see above)
DEFAULT_N = 6
DEFAULT_THRESHOLD = 0.5

_TOKEN = re.compile(r"[A-Za-z_]\w*|\d+|[^\w\s]")
_LOCAL = re.compile(r"v\d+")  # the names normalise() gives local identifiers


def normalised(code: str) -> str:
    """The PennySynth builder's dedup normalisation (the one rule; not a copy of it)."""
    import warnings

    from .loaders.pennysynth import normalise

    try:
        with warnings.catch_warnings():  # corpus code's invalid escapes ("\\s" in a docstring)
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            return normalise(code)
    except (RecursionError, ValueError, MemoryError):
        return re.sub(r"\s+", " ", code).strip()


def ngrams(norm: str, n: int) -> set[tuple[str, ...]]:
    """Token n-grams of normalised code, every local name written as ``v``."""
    tokens = [_LOCAL.sub("v", t) if _LOCAL.fullmatch(t) else t for t in _TOKEN.findall(norm)]
    return {tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)}


def jaccard(a: set | frozenset, b: set | frozenset) -> float:
    """``|a ∩ b| / |a ∪ b|`` (0 for two empty sets)."""
    if not a and not b:
        return 0.0
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter)


def similarity(code_a: str, code_b: str, n: int = DEFAULT_N) -> float:
    """The near-duplicate score of two programs: 1 when they normalise to the same text, else
    the Jaccard similarity of their n-gram sets."""
    a, b = normalised(code_a), normalised(code_b)
    return 1.0 if a == b else jaccard(ngrams(a, n), ngrams(b, n))


class NearDuplicateIndex:
    """Entries added one by one; :meth:`match` finds the one a program near-duplicates.

    ``threshold`` in (0, 1]: the least Jaccard similarity that makes a near-duplicate.
    """

    def __init__(self, n: int = DEFAULT_N, threshold: float = DEFAULT_THRESHOLD):
        if not 0 < threshold <= 1:
            raise ValueError(f"near-duplicate threshold must be in (0, 1], got {threshold}")
        if n < 1:
            raise ValueError(f"n must be a positive integer, got {n}")
        self.n, self.threshold = n, threshold
        self._ids: list[str] = []
        self._sets: list[frozenset[int]] = []  # an entry's n-grams, each as its hash
        self._postings: dict[int, list[int]] = {}  # n-gram hash -> entries holding it
        self._texts: dict[str, int] = {}  # normalised text -> first entry

    def __len__(self) -> int:
        return len(self._ids)

    def _grams(self, norm: str) -> frozenset[int]:
        return frozenset(hash(g) for g in ngrams(norm, self.n))

    def add(self, entry_id: str, code: str) -> None:
        self.add_normalised(entry_id, normalised(code))

    def add_normalised(self, entry_id: str, norm: str) -> None:
        k = len(self._ids)
        grams = self._grams(norm)
        self._ids.append(entry_id)
        self._sets.append(grams)
        self._texts.setdefault(norm, k)
        for g in grams:
            self._postings.setdefault(g, []).append(k)

    def match(self, code: str) -> tuple[str, float] | None:
        """``(entry id, score)`` of the most similar entry at or above the threshold (the first
        added among equals), else None."""
        return self.match_normalised(normalised(code))

    def match_normalised(self, norm: str) -> tuple[str, float] | None:
        same = self._texts.get(norm)
        if same is not None:
            return self._ids[same], 1.0
        a = self._grams(norm)
        if not a:  # shorter than n tokens: identity only
            return None
        t = self.threshold
        size = len(a)
        need = math.ceil(t * size - 1e-9)  # n-grams an entry must share
        probe = sorted(a, key=lambda g: len(self._postings.get(g, ())))[:size - need + 1]
        lo, hi = t * size - 1e-9, size / t + 1e-9
        best: tuple[float, int] | None = None
        seen: set[int] = set()
        for g in probe:
            for k in self._postings.get(g, ()):
                if k in seen:
                    continue
                seen.add(k)
                b = self._sets[k]
                if not lo <= len(b) <= hi:
                    continue
                s = jaccard(a, b)
                if s >= t - 1e-12 and (best is None or (s, -k) > (best[0], -best[1])):
                    best = (s, k)
        return None if best is None else (self._ids[best[1]], best[0])
