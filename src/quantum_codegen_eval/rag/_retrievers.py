"""The retrievers: BM25 over instruction + code (the default, no download) and dense cosine
retrieval with the user's ``embed``.

Both return, per query, the corpus entries ranked best first with a **similarity in [0, 1]**,
so one threshold τ reads the same way for both:

* dense: the cosine similarity of the two embeddings (clipped at 0), as in the paper;
* BM25 (``bm25s``, Lucene variant, k1 = 1.5, b = 0.75): the raw score of the query against an
  entry divided by the entry's score against itself, ``bm25(q, d) / bm25(d, d)``, both over the
  distinct terms of the query (a term counts once). It is the IDF- and saturation-weighted share
  of the entry's own terms that the query holds: 1.0 when the query contains every term of the
  entry, 0 when it shares none. Ranking is by the raw score (the library's); the normalised
  score only meets the threshold. It is not a cosine: τ = 0.60 was calibrated by the paper for
  its embedding, so for BM25 read the consistency report (``qce prompts --rag ... --report``)
  before choosing a threshold.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: identifiers, with their dotted and snake/camel parts (``qml.RX`` -> qml, rx; ``apply_gate``
#: -> apply_gate, apply, gate)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")

Embed = Callable[[list[str]], Any]


def tokens(text: str) -> list[str]:
    """Lower-cased terms of a text: every identifier and the parts of compound ones."""
    out = []
    for word in _WORD.findall(text):
        low = word.lower()
        out.append(low)
        parts = [p.lower() for p in _PARTS.findall(word)]
        if len(parts) > 1:
            out.extend(parts)
    return out


@dataclass(frozen=True)
class Hit:
    """One retrieved entry: its position in the corpus and its similarity in [0, 1]."""

    index: int
    score: float


class BM25Retriever:
    """BM25 (the ``bm25s`` library) over the documents; similarity normalised as the module
    docstring says."""

    name = "bm25"

    def __init__(self, documents: Sequence[str], *, k1: float = 1.5, b: float = 0.75):
        try:
            import bm25s
        except ImportError:  # pragma: no cover - the [rag] extra
            from ..benchmarks.base import UsageError

            raise UsageError("the BM25 retriever needs bm25s: pip install "
                             "'quantum-codegen-eval[rag]'") from None
        self.settings = {"k1": k1, "b": b, "method": "lucene", "library": f"bm25s {bm25s.__version__}"}
        self._docs = [tokens(d) for d in documents]
        vocab: dict[str, int] = {}
        ids = [[vocab.setdefault(t, len(vocab)) for t in doc] for doc in self._docs]
        self._vocab = vocab
        self._bm25 = bm25s.BM25(k1=k1, b=b, method="lucene")
        self._bm25.index(bm25s.tokenization.Tokenized(ids=ids, vocab=vocab), show_progress=False)
        # bm25(d, d) over d's distinct terms is the sum of d's row of the index's score matrix
        # (bm25s keeps it as CSC arrays: one value per (term, document) pair): one pass, not a
        # query per entry (tests/pennysynth/test_rag.py checks it against get_scores)
        index = self._bm25.scores
        self._self = np.bincount(np.asarray(index["indices"]),
                                 weights=np.asarray(index["data"], dtype=float),
                                 minlength=len(self._docs))[:len(self._docs)]

    def _raw(self, terms: list[str]) -> np.ndarray:
        known = [self._vocab[t] for t in dict.fromkeys(terms) if t in self._vocab]
        if not known:
            return np.zeros(len(self._docs))
        return np.asarray(self._bm25.get_scores(known), dtype=float)

    def search(self, query: str, top_k: int) -> list[Hit]:
        raw = self._raw(tokens(query))
        order = np.argsort(-raw, kind="stable")[:top_k]
        return [Hit(int(i), float(min(1.0, raw[i] / self._self[i])) if self._self[i] > 0 else 0.0)
                for i in order if raw[i] > 0]


class DenseRetriever:
    """Cosine similarity of ``embed(texts)`` vectors (the user's model, e.g.
    ``SentenceTransformer(name).encode``): ``embed`` takes a list of strings and returns one
    vector per string."""

    name = "embedding"

    def __init__(self, documents: Sequence[str], embed: Embed):
        self._embed = embed
        self.settings = {"embed": callable_name(embed)}
        self._matrix = self._unit(self._vectors(list(documents)))

    def _vectors(self, texts: list[str]) -> np.ndarray:
        out = self._embed(texts)
        if hasattr(out, "toarray"):  # a scipy sparse matrix (e.g. TfidfVectorizer.transform)
            out = out.toarray()
        arr = np.asarray(out, dtype=float)
        if arr.ndim != 2 or arr.shape[0] != len(texts):
            raise ValueError(f"embed() must return one vector per text: got shape {arr.shape} "
                             f"for {len(texts)} texts")
        return arr

    @staticmethod
    def _unit(arr: np.ndarray) -> np.ndarray:
        norms = np.linalg.norm(arr, axis=1, keepdims=True)
        return np.divide(arr, norms, out=np.zeros_like(arr), where=norms > 0)

    def search(self, query: str, top_k: int) -> list[Hit]:
        q = self._unit(self._vectors([query]))[0]
        sims = self._matrix @ q
        order = np.argsort(-sims, kind="stable")[:top_k]
        return [Hit(int(i), float(max(0.0, min(1.0, sims[i])))) for i in order]


def callable_name(fn: Any) -> str:
    owner = getattr(fn, "__self__", None)
    name = getattr(fn, "__qualname__", None) or type(fn).__name__
    if owner is not None and not isinstance(owner, type):
        return f"{type(owner).__module__}.{type(owner).__qualname__}.{getattr(fn, '__name__', name)}"
    return f"{getattr(fn, '__module__', '') or ''}.{name}".lstrip(".")
