"""CodeBLEU: the CodeXGLUE metric (``variant="standard"``) and its quantum variant.

``variant="standard"`` reproduces PyPI ``codebleu==0.7.0`` for Python to 1e-6 (quirks included,
see docs/metrics/codebleu.md), except that it gives one number in every process and on every
Python (the reference's dataflow depends on ``PYTHONHASHSEED``, its comment stripper on the
Python version: the ``dfg-merge`` and ``tokenize`` rules of the signature); ``variant="quantum"`` is the PennySynth metric (``qml.*`` tokens
weigh ``qml_weight`` in the weighted n-gram component, dataflow replaced by a Jaccard match over
the program's quantum key set K(c)), with a Qiskit counterpart under ``lang="qiskit"``.

>>> ref = "import pennylane as qml\\ndef f(x):\\n    qml.RX(x, wires=0)\\n    return qml.expval(qml.PauliZ(0))"
>>> out = codebleu(references=[ref], predictions=[ref])
>>> round(out["codebleu"], 6), out["signature"].split("|")[1]
(1.0, 'variant:standard')
>>> hyp = ref.replace("RX", "RY")
>>> q = codebleu(references=[ref], predictions=[hyp], variant="quantum", lang="pennylane")
>>> round(q["dataflow_match"], 4)  # K = {RX, expval, PauliZ} vs {RY, expval, PauliZ}
0.5
"""

from __future__ import annotations

import gc
import re
import warnings
from collections import Counter
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from . import _codebleu_quantum as qk
from ._codebleu_bleu import (
    NgramProfile,
    Stats,
    bleu_from_stats,
    bleu_stats,
    clipped,
    weighted_stats,
)
from ._codebleu_ref import (
    PYTHON_KEYWORDS,
    dataflow_counts,
    strip_or_keep,
)
from ._codebleu_tree import SyntaxIds, flatten
from ._pairs import keyword_pairs
from .results import CodeBLEUComponents, CodeBLEUScore
from .signature import make_signature, package_version

VARIANTS = ("standard", "quantum")
LANGS = ("python", "pennylane", "qiskit")
_KEYWORDS = frozenset(PYTHON_KEYWORDS)

#: predictions longer than this are scored on their first ``MAX_CHARS`` characters (a warning
#: counts them); docs/metrics/codebleu.md
MAX_CHARS = 200_000

_PARSER = None
_SURROGATE = re.compile("[\ud800-\udfff]")


def encodable(s: str) -> str:
    """``s`` with lone surrogates (``"\\ud800"``, which a JSON prediction can carry and UTF-8
    cannot encode) replaced by U+FFFD; any other string unchanged."""
    if s.isascii():
        return s
    try:
        s.encode("utf8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", s)
    return s


def _parser():
    global _PARSER
    if _PARSER is None:
        import tree_sitter_python
        from tree_sitter import Language, Parser

        _PARSER = Parser(Language(tree_sitter_python.language()))
    return _PARSER


@contextmanager
def _no_cyclic_gc():
    """Pause the cyclic garbage collector: scoring allocates many small lists and tuples (no
    cycles), and each collection would walk the growing per-call caches again; measured at
    ~25% of the time on distinct pairs (docs/metrics/codebleu.md). Restored on exit."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass
class _Code:
    """What the syntax and dataflow matches need of one (comment-stripped) program."""

    subtrees: list[int]  # SyntaxIds ids of the subtrees' s-expressions
    subtree_set: set[int]
    flows: Counter | None  # normalised dataflow edge -> count (variant="standard" only)


class _Memo:
    """Per-call caches: each distinct string is stripped, parsed and analysed once."""

    def __init__(self, variant: str, lang: str, qml_weight: float):
        self.variant, self.lang, self.qml_weight = variant, lang, qml_weight
        self._strip: dict[str, str] = {}
        self._code: dict[str, _Code] = {}
        self._hyp: dict[str, NgramProfile] = {}
        self._ref: dict[str, NgramProfile] = {}
        self._keys: dict[str, set[str]] = {}
        self._syntax = SyntaxIds()

    def strip(self, s: str, times: int = 1) -> str:
        for _ in range(times):
            if s not in self._strip:
                self._strip[s] = strip_or_keep(s)
            s = self._strip[s]
        return s

    def code(self, s: str) -> _Code:
        """Parse ``s`` once and take everything from that one tree (which is then dropped)."""
        if s not in self._code:
            parser = _parser()
            tree = flatten(parser.parse(s.encode("utf8")).root_node, parser.language,
                           self._syntax, s.isascii())
            flows = None
            if self.variant == "standard":
                flows = dataflow_counts(s, tree)
            self._code[s] = _Code(tree.subtrees, set(tree.subtrees), flows)
        return self._code[s]

    def tokens(self, s: str) -> list[str]:
        if self.variant == "standard":
            return s.split()
        return qk.quantum_tokens(s, self.lang)

    def hyp(self, s: str) -> NgramProfile:
        if s not in self._hyp:
            self._hyp[s] = NgramProfile.build(self.tokens(s))
        return self._hyp[s]

    def ref(self, s: str) -> NgramProfile:
        if s not in self._ref:
            self._ref[s] = NgramProfile.build(self.tokens(s), self._weights)
        return self._ref[s]

    def _weights(self, unigrams: Counter) -> dict[str, float]:
        """Per distinct token: ``qml_weight`` for a quantum token (quantum variant), 1 for a
        keyword, else 0.2."""
        weights = dict.fromkeys(unigrams, 0.2)
        for tok in _KEYWORDS.intersection(unigrams):
            weights[tok] = 1
        if self.variant == "quantum":
            for tok in unigrams:
                if qk.is_quantum_token(tok, self.lang):
                    weights[tok] = self.qml_weight
        return weights

    def keys(self, s: str) -> set[str]:
        if s not in self._keys:
            self._keys[s] = qk.key_set(self.strip(s), self.lang)
        return self._keys[s]


@dataclass
class _PairStats:
    bleu: Stats
    weighted: Stats
    syntax: tuple[int, int]  # matched reference subtrees, reference subtrees
    dataflow: tuple[int, int]  # matched reference flows, reference flows
    keys: float  # quantum variant: best Jaccard over references


def _pair_stats(memo: _Memo, refs: list[str], hyp: str) -> _PairStats:
    ref_profiles = [memo.ref(r) for r in refs]
    hyp_profile = memo.hyp(hyp)
    s_match = s_total = d_match = d_total = 0
    for k, ref in enumerate(refs):
        # The reference re-strips the (already stripped) candidate once per reference.
        cand = memo.strip(hyp, k + 1)
        ref_s = memo.strip(ref)
        cand_code, ref_code = memo.code(cand), memo.code(ref_s)
        s_match += sum(map(cand_code.subtree_set.__contains__, ref_code.subtrees))
        s_total += len(ref_code.subtrees)
        if memo.variant == "standard":
            ref_flows = ref_code.flows
            if ref_flows:
                cand_flows = cand_code.flows
                d_total += sum(ref_flows.values())
                d_match += clipped(ref_flows, cand_flows)
    keys = 0.0
    if memo.variant == "quantum":
        keys = max(qk.jaccard(memo.keys(hyp), memo.keys(r)) for r in refs)
    return _PairStats(
        bleu_stats(hyp_profile, ref_profiles),
        weighted_stats(hyp_profile, ref_profiles),
        (s_match, s_total),
        (d_match, d_total),
        keys,
    )


def _scores(stats: list[_PairStats], variant: str, weights: Sequence[float]) -> CodeBLEUComponents:
    bleu, weighted = Stats.zero(), Stats.zero()
    s_match = s_total = d_match = d_total = 0
    for st in stats:
        bleu += st.bleu
        weighted += st.weighted
        s_match += st.syntax[0]
        s_total += st.syntax[1]
        d_match += st.dataflow[0]
        d_total += st.dataflow[1]
    out = {
        "ngram_match": bleu_from_stats(bleu),
        "weighted_ngram_match": bleu_from_stats(weighted),
        "syntax_match": s_match / s_total,
    }
    a, b, c, d = weights
    if variant == "standard":
        out["dataflow_match"] = d_match / d_total if d_total else 0
        # Reference quirk: a dataflow score of 0 (none extracted, or none matched) counts as 1.
        last = out["dataflow_match"] or 1
    else:
        out["dataflow_match"] = sum(st.keys for st in stats) / len(stats)
        last = out["dataflow_match"]
    total = a * out["ngram_match"] + b * out["weighted_ngram_match"] + c * out["syntax_match"]
    return CodeBLEUComponents(codebleu=total + d * last, **out)


def _normalise_refs(references: Any, n_pred: int) -> list[list[str]]:
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError("references must be a list of strings or a list of lists of strings")
    if len(references) != n_pred:
        raise ValueError(
            f"got {len(references)} references for {n_pred} predictions: they must pair up"
        )
    out = []
    for i, ref in enumerate(references):
        group = [ref] if isinstance(ref, str) else ref
        if isinstance(group, str) or not isinstance(group, Sequence) or not group:
            raise TypeError(f"references[{i}] must be a string or a non-empty list of strings")
        for j, r in enumerate(group):
            if not isinstance(r, str):
                raise TypeError(f"references[{i}][{j}] is {type(r).__name__}, not str")
        out.append([encodable(r).strip() for r in group])
    return out


def signature(variant: str, lang: str, weights: Sequence[float], qml_weight: float) -> str:
    """The reproducibility signature of a CodeBLEU configuration."""
    fields: dict[str, object] = {"variant": variant, "lang": lang, "weights": list(weights)}
    if variant == "quantum":
        fields["qml_weight"] = qml_weight
        fields["tokenizer"] = "code"
        fields["keys"] = "qiskit" if lang == "qiskit" else "pennylane"
    else:
        fields["tokenizer"] = "whitespace"
        fields["reference"] = "codebleu-0.7.0"
        fields["dfg-merge"] = "first-seen"  # the reference's set order depends on the hash seed
        fields["tokenize"] = "py3.11"  # comment stripping tokenizes as Python 3.11 does
    fields["tree-sitter"] = package_version("tree-sitter")
    fields["tree-sitter-python"] = package_version("tree-sitter-python")
    return make_signature("codebleu", **fields)


def codebleu(
    *args: Any,
    references: Sequence[str] | Sequence[Sequence[str]] | None = None,
    predictions: Sequence[str] | None = None,
    variant: str = "standard",
    lang: str = "python",
    weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
    qml_weight: float = 3.0,
    per_sample: bool = True,
    max_chars: int | None = MAX_CHARS,
) -> CodeBLEUScore:
    """Corpus CodeBLEU of ``predictions`` against ``references``.

    ``references[i]`` is one reference string or a list of them (as in ``codebleu.calc_codebleu``).
    ``weights`` are (alpha, beta, gamma, theta) for n-gram, weighted n-gram, syntax and
    dataflow (or, for ``variant="quantum"``, key) match. ``qml_weight`` is the weight of a quantum
    token in the weighted n-gram component (keywords weigh 1, other tokens 0.2). Returns a
    :class:`~.results.CodeBLEUScore`: ``codebleu``, the four components, ``per_sample`` (one
    :class:`~.results.CodeBLEUComponents` per pair, each pair scored as a corpus of one),
    ``signature`` and ``warnings``; it reads as a dict too (``out["codebleu"]``,
    ``out.as_dict()``). A prediction longer than ``max_chars`` characters is scored on its first
    ``max_chars`` (a warning counts them; ``None``: no cap). ``references`` and ``predictions``
    are keyword arguments; passing them by position is deprecated (a ``DeprecationWarning``).
    """
    references, predictions = keyword_pairs("codebleu", args, references, predictions)
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    weights = tuple(float(w) for w in weights)
    if len(weights) != 4 or any(w < 0 for w in weights):
        raise ValueError(f"weights must be 4 non-negative numbers, got {weights}")
    if qml_weight <= 0:
        raise ValueError(f"qml_weight must be positive, got {qml_weight}")
    if isinstance(predictions, str) or not isinstance(predictions, Sequence):
        raise TypeError("predictions must be a list of strings")
    if not predictions:
        raise ValueError("no predictions to score")
    for i, p in enumerate(predictions):
        if not isinstance(p, str):
            raise TypeError(f"predictions[{i}] is {type(p).__name__}, not str")
    refs = _normalise_refs(references, len(predictions))
    long = 0
    if max_chars is not None and any(len(p) > max_chars for p in predictions):
        long = sum(len(p) > max_chars for p in predictions)
        predictions = [p[:max_chars] for p in predictions]
    with _no_cyclic_gc():
        memo = _Memo(variant, lang, float(qml_weight))
        stats = [_pair_stats(memo, r, encodable(p).strip()) for r, p in zip(refs, predictions, strict=True)]
        del memo  # freed while collection is paused, so no collection walks it
    total = _scores(stats, variant, weights)
    notes = _lang_warnings(refs, predictions, variant, lang)
    if long:
        notes.append(f"codebleu: {long} of {len(predictions)} predictions are longer than "
                     f"{max_chars} characters and were scored on their first {max_chars}")
    for note in notes:
        warnings.warn(note, UserWarning, stacklevel=2)
    return CodeBLEUScore(
        **total,
        per_sample=tuple(_scores([st], variant, weights) for st in stats) if per_sample else (),
        signature=signature(variant, lang, weights, qml_weight),
        warnings=tuple(notes),
    )


def _lang_warnings(refs: list[list[str]], preds: Sequence[str], variant: str,
                   lang: str) -> list[str]:
    """The quantum key match only sees the library ``lang`` names: Qiskit code scored with
    ``lang="pennylane"`` has no keys (a silent key match of 1.0), and the reverse. Say so."""
    if variant != "quantum":
        return []
    want = "qiskit" if lang == "qiskit" else "pennylane"
    bad = sum(
        any(qk.looks_like(t) not in (None, want) for t in [p, *r])
        for r, p in zip(refs, preds, strict=True)
    )
    if not bad:
        return []
    other = "pennylane" if want == "qiskit" else "qiskit"
    label = {"qiskit": "Qiskit", "pennylane": "PennyLane"}
    return [f"codebleu: {bad} of {len(preds)} pairs look like {label[other]} code but "
            f"lang={lang!r} keys on {label[want]} names, so their key match compares (mostly "
            f"empty) {label[want]} key sets; pass lang={other!r}"]
