"""BLEU and the weighted-recall "BLEU" of CodeBLEU on precomputed n-gram counters.

Same arithmetic as ``codebleu/bleu.py`` and ``codebleu/weighted_ngram_match.py`` (0.7.0), but each
string's n-gram counters are built once and the per-pair statistics are plain sums, so corpus
and per-sample scores come from the same numbers.

>>> a = NgramProfile.build("x = f ( y )".split())
>>> stats = bleu_stats(a, [a])
>>> bleu_from_stats(stats)
1.0
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import reduce
from operator import add, mul

ORDERS = (1, 2, 3, 4)
_EPSILON = 0.1  # SmoothingFunction().method1


@dataclass
class NgramProfile:
    """n-gram counters (n = 1..4; unigrams keyed by token) of one token list, plus its
    weighted unigram total."""

    length: int
    counts: tuple[Counter, ...]
    weighted_total: float = 0.0
    weights: dict[str, float] = field(default_factory=dict)

    @classmethod
    def build(cls, tokens: list[str],
              weigh: Callable[[Counter], dict[str, float]] | None = None) -> NgramProfile:
        """Count the n-grams of ``tokens``; ``weigh(unigram_counts)`` gives the unigram weights
        (a reference's), none for a hypothesis (whose weighted total is not used)."""
        # Unigrams are keyed by the token itself, longer n-grams by tuples.
        counts = (Counter(tokens),) + tuple(
            Counter(zip(*(tokens[i:] for i in range(n)), strict=False)) if len(tokens) >= n else Counter()
            for n in ORDERS[1:]
        )
        if weigh is None:
            return cls(len(tokens), counts)
        weights = weigh(counts[0])
        # left to right in doubles, as ``total += c * w`` in token order (upstream's loop, and the
        # numerator's in weighted_stats): not sum(), which compensates from Python 3.12 on, so an
        # identical pair would score 0.9999999999999999 there and 1.0 on 3.10/3.11
        total = reduce(add, map(mul, counts[0].values(), map(weights.__getitem__, counts[0])), 0.0)
        return cls(len(tokens), counts, total, weights)


@dataclass
class Stats:
    """Summable BLEU statistics: per-order numerators/denominators and lengths."""

    num: list[float]
    den: list[float]
    hyp_len: int
    ref_len: int

    def __iadd__(self, other: Stats) -> Stats:
        self.num = [a + b for a, b in zip(self.num, other.num, strict=True)]
        self.den = [a + b for a, b in zip(self.den, other.den, strict=True)]
        self.hyp_len += other.hyp_len
        self.ref_len += other.ref_len
        return self

    @classmethod
    def zero(cls) -> Stats:
        return cls([0] * 4, [0] * 4, 0, 0)


def _closest(ref_lens: list[int], hyp_len: int) -> int:
    return min(ref_lens, key=lambda r: (abs(r - hyp_len), r))


def clipped(a: Counter, b: Counter) -> int:
    """Sum over shared n-grams of the smaller count (the others add 0): set and map work in C."""
    shared = a.keys() & b.keys()
    return sum(map(min, map(a.__getitem__, shared), map(b.__getitem__, shared)))


def bleu_stats(hyp: NgramProfile, refs: list[NgramProfile]) -> Stats:
    """Modified (clipped) precision statistics, as ``bleu.corpus_bleu`` accumulates them."""
    num, den = [], []
    for n in range(4):
        counts = hyp.counts[n]
        clip = 0
        if len(refs) == 1:
            clip = clipped(counts, refs[0].counts[n])
        else:
            ref_counts = [r.counts[n] for r in refs]
            for gram, c in counts.items():
                best = max(rc.get(gram, 0) for rc in ref_counts)
                clip += c if c < best else best
        num.append(clip)
        den.append(max(1, hyp.length - n if hyp.length > n else 0))
    return Stats(num, den, hyp.length, _closest([r.length for r in refs], hyp.length))


def weighted_stats(hyp: NgramProfile, refs: list[NgramProfile]) -> Stats:
    """``weighted_ngram_match.modified_recall`` statistics, summed over references.

    The reference length is 2 per pair: ``closest_ref_length`` there measures
    ``[tokens, weights]`` pairs, not token lists (a quirk kept on purpose).
    """
    num, den = [0.0] * 4, [0.0] * 4
    hyp1 = hyp.counts[0]
    for ref in refs:
        w = ref.weights
        s = 0.0
        ref1 = ref.counts[0]
        # In the reference's order (a float sum); unigrams the hypothesis lacks add exactly 0.
        for gram in filter(hyp1.__contains__, ref1):
            c, h = ref1[gram], hyp1[gram]
            s += (c if c < h else h) * w.get(gram, 1)
        num[0] += s
        den[0] += max(1, ref.weighted_total)
        for n in range(1, 4):
            num[n] += clipped(ref.counts[n], hyp.counts[n])
            den[n] += max(1, ref.length - n if ref.length > n else 0)
    return Stats(num, den, hyp.length, 2)


def bleu_from_stats(stats: Stats) -> float:
    """BLEU-4 with uniform weights, smoothing method1 (epsilon 0.1) and the brevity penalty."""
    if stats.num[0] == 0:
        return 0
    hyp, ref = stats.hyp_len, stats.ref_len
    if hyp > ref:
        bp = 1
    elif hyp == 0:
        bp = 0
    else:
        bp = math.exp(1 - ref / hyp)
    logs = (
        0.25 * math.log((p if p != 0 else p + _EPSILON) / d) for p, d in zip(stats.num, stats.den, strict=True)
    )
    return bp * math.exp(math.fsum(logs))
