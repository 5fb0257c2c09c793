"""Typed metric results that still read like the dicts they replace (sacrebleu's ``BLEUScore``
is the model): attributes for editors and type checkers, ``result["key"]``, ``dict(result)`` and
``result.as_dict()`` (JSON-ready, nested results converted) for existing code. Every metric's
result type derives from :class:`MappingResult`: these, ``PassAtK``/``PassAtKCI`` (passk) and
``Finding``/``HallucinationRate`` (hallucination). ``HallucinationCheck`` (what
``find_hallucinations`` returns) is the sequence of its ``Finding`` s, with ``as_dict()`` too.

>>> r = CodeBLEUComponents(0.5, 0.4, 0.6, 0.7, 0.3)
>>> r.codebleu, r["syntax_match"], sorted(dict(r))[:2]
(0.5, 0.7, ['codebleu', 'dataflow_match'])
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any


class MappingResult(Mapping):
    """Read-only mapping view of a dataclass's fields (mixin for the result types)."""

    __slots__ = ()

    def __getitem__(self, key: str) -> Any:
        if isinstance(key, str) and key in self._keys():
            return getattr(self, key)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())

    def _keys(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self))  # type: ignore[arg-type]

    def as_dict(self) -> dict[str, Any]:
        """A plain dict (nested results and tuples of them become dicts and lists)."""
        def conv(v: Any) -> Any:
            if isinstance(v, MappingResult):
                return v.as_dict()
            if isinstance(v, tuple):
                return [conv(x) for x in v]
            return v
        return {k: conv(getattr(self, k)) for k in self._keys()}


@dataclass(frozen=True, eq=True)
class CodeBLEUComponents(MappingResult):
    """CodeBLEU of one pair (scored as a corpus of one) or of a corpus, without metadata."""

    codebleu: float
    ngram_match: float
    weighted_ngram_match: float
    syntax_match: float
    dataflow_match: float

    def __str__(self) -> str:
        return (f"CodeBLEU = {self.codebleu:.4f} (ngram {self.ngram_match:.4f}, weighted "
                f"{self.weighted_ngram_match:.4f}, syntax {self.syntax_match:.4f}, dataflow/keys "
                f"{self.dataflow_match:.4f})")


@dataclass(frozen=True, eq=True)
class CodeBLEUScore(CodeBLEUComponents):
    """Corpus CodeBLEU, its per-pair scores and the reproducibility signature."""

    per_sample: tuple[CodeBLEUComponents, ...] = ()
    signature: str = ""
    warnings: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{super().__str__()} {self.signature}"


@dataclass(frozen=True, eq=True)
class RougeComponents(MappingResult):
    """ROUGE-L precision, recall and F of one pair, or their means over a corpus."""

    precision: float
    recall: float
    f: float


@dataclass(frozen=True, eq=True)
class RougeLScore(RougeComponents):
    """Mean ROUGE-L over pairs, the per-pair scores and the signature."""

    per_sample: tuple[RougeComponents, ...] = ()
    signature: str = ""
    truncated: int = 0  # predictions scored on their first ``rouge.MAX_CHARS`` characters
