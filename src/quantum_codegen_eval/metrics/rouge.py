"""ROUGE-L between reference and predicted code, computed by ``rouge-score``.

Two tokenizers: ``default`` is rouge-score's own (lowercases, keeps only ``[a-z0-9]`` runs, so
``qml.RX(0.5)`` becomes ``qml rx 0 5``), comparable with published numbers; ``code`` keeps case,
dotted names as one token and punctuation (``qml.RX ( 0.5 )``).

>>> r = rouge_l(references=["qml.RX(0.5, wires=0)"], predictions=["qml.RY(0.5, wires=0)"])
>>> round(r["f"], 4), r["signature"].split("|")[:2]
(0.8333, ['rouge_l', 'tokenizer:default'])
>>> round(rouge_l(references=["qml.RX(0.5, wires=0)"], predictions=["qml.RY(0.5, wires=0)"], tokenizer="code")["f"], 4)
0.875
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ._pairs import keyword_pairs
from .results import RougeComponents, RougeLScore
from .signature import make_signature, package_version

__all__ = ["MAX_CHARS", "CodeTokenizer", "lcs_length", "rouge_l"]

#: predictions longer than this are scored on their first ``MAX_CHARS`` characters (counted in
#: ``RougeLScore.truncated``); docs/metrics/rouge_l.md
MAX_CHARS = 200_000

_CODE_TOKEN = re.compile(
    r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"  # identifiers and dotted names
    r"|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?j?|\.\d+(?:[eE][+-]?\d+)?j?"  # numbers
    r"|\*\*=?|//=?|->|:=|<<=?|>>=?|[=!<>+\-*/%&|^@]=|\S"  # operators, then any other char
)


class CodeTokenizer:
    """Code-aware tokenizer for ``rouge_scorer.RougeScorer(tokenizer=...)``.

    >>> CodeTokenizer().tokenize("qml.RX(theta**2, wires=0)  # x")
    ['qml.RX', '(', 'theta', '**', '2', ',', 'wires', '=', '0', ')', '#', 'x']
    """

    def tokenize(self, text: str) -> list[str]:
        return _CODE_TOKEN.findall(text)


def rouge_l(*args: Any, references: Sequence[str] | None = None,
            predictions: Sequence[str] | None = None, tokenizer: str = "default", use_stemmer: bool = False,
            max_chars: int | None = MAX_CHARS) -> RougeLScore:
    """Sentence-level ROUGE-L (LCS) of each pair, averaged over pairs.

    Returns a :class:`~.results.RougeLScore` (``precision``, ``recall``, ``f``, ``per_sample``,
    ``signature``; readable as a dict: ``r["f"]``, ``r.as_dict()``). ``use_stemmer`` applies to the ``default`` tokenizer only (rouge-score's
    Porter stemmer). A prediction longer than ``max_chars`` is scored on its first ``max_chars``
    characters (counted in ``truncated``; ``None``: no cap). Raises ``ValueError`` on unequal lengths, an empty corpus, a non-string
    entry (naming it) or an unknown tokenizer. ``references`` and ``predictions`` are keyword
    arguments; passing them by position is deprecated (a ``DeprecationWarning``).
    """
    references, predictions = keyword_pairs("rouge_l", args, references, predictions)
    from rouge_score import scoring

    if isinstance(references, str) or isinstance(predictions, str):
        raise ValueError("rouge_l: pass lists of strings, not a single string")
    if len(references) != len(predictions):
        raise ValueError(f"rouge_l: {len(references)} references but {len(predictions)} predictions")
    if not references:
        raise ValueError("rouge_l: no pairs to score")
    for i, (r, p) in enumerate(zip(references, predictions, strict=True)):
        if not isinstance(r, str) or not isinstance(p, str):
            raise ValueError(f"rouge_l: pair {i} is not a pair of strings "
                             f"({type(r).__name__}, {type(p).__name__})")
    if tokenizer == "default":
        # only here: rouge-score's tokenizers import nltk, whose import pulls in scipy.stats
        # (seconds; 20 s under load) although the code tokenizer needs none of it
        from rouge_score import tokenizers

        tok = tokenizers.DefaultTokenizer(use_stemmer=use_stemmer)
    elif tokenizer == "code":
        if use_stemmer:
            raise ValueError("rouge_l: use_stemmer applies to the default tokenizer only")
        tok = CodeTokenizer()
    else:
        raise ValueError(f"rouge_l: unknown tokenizer {tokenizer!r}; use 'default' or 'code'")
    per_sample = []
    truncated = 0
    for r, p in zip(references, predictions, strict=True):
        if max_chars is not None and len(p) > max_chars:
            p, truncated = p[:max_chars], truncated + 1
        # rouge-score's ``_score_lcs`` with the LCS length computed bit-parallel (its table is
        # O(n*m) time and memory in Python lists: minutes and gigabytes on a long prediction)
        ref_toks, pred_toks = tok.tokenize(r), tok.tokenize(p)
        if not ref_toks or not pred_toks:
            per_sample.append(RougeComponents(0, 0, 0))
            continue
        lcs = lcs_length(ref_toks, pred_toks)
        precision, recall = lcs / len(pred_toks), lcs / len(ref_toks)
        per_sample.append(RougeComponents(precision, recall,
                                          scoring.fmeasure(precision, recall)))
    n = len(per_sample)
    fields = {"tokenizer": tokenizer}
    if tokenizer == "default":
        fields["stemmer"] = "porter" if use_stemmer else "none"
    return RougeLScore(
        precision=sum(s.precision for s in per_sample) / n,
        recall=sum(s.recall for s in per_sample) / n,
        f=sum(s.f for s in per_sample) / n,
        per_sample=tuple(per_sample),
        truncated=truncated,
        signature=make_signature("rouge_l", **fields, agg="mean",
                                 **{"rouge-score": package_version("rouge-score")}),
    )


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of two token lists, bit-parallel (Hyyro 2004):
    O(len(b) * len(a) / word size) time, O(len(a)) bits of memory.

    >>> lcs_length("a b c d".split(), "a c x d".split())
    3
    """
    if len(a) > len(b):
        a, b = b, a
    masks: dict[str, int] = {}
    for i, t in enumerate(a):
        masks[t] = masks.get(t, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    get = masks.get
    for t in b:
        u = v & get(t, 0)
        if u:
            v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()
