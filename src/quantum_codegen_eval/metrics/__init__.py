"""The metrics: pass@k, CodeBLEU (standard and quantum), ROUGE-L and the hallucination check.

Pure functions of strings and counts; each output carries a signature (see :mod:`.signature`).
Names are imported lazily, so importing one metric does not load the others' dependencies.
CodeBLEU is ``quantum_codegen_eval.codebleu`` (or ``metrics.codebleu.codebleu``): it is not
re-exported here, where the name would clash with its module.

>>> from quantum_codegen_eval.metrics import pass_at_k
>>> pass_at_k(5, 5, 1).value
1.0
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what editors and type checkers see; at run time names load lazily
    from .fidelity import mean_fidelity
    from .hallucination import (
        CodeParseError,
        Finding,
        HallucinationCheck,
        find_hallucinations,
        hallucination_rate,
    )
    from .passk import partial_credit, pass_at_k, pass_at_k_ci
    from .results import CodeBLEUComponents, CodeBLEUScore, RougeComponents, RougeLScore
    from .rouge import rouge_l

_EXPORTS = {
    "pass_at_k": "passk",
    "pass_at_k_ci": "passk",
    "partial_credit": "passk",
    "mean_fidelity": "fidelity",
    "rouge_l": "rouge",
    "find_hallucinations": "hallucination",
    "hallucination_rate": "hallucination",
    "CodeParseError": "hallucination",
    "Finding": "hallucination",
    "HallucinationCheck": "hallucination",
    "CodeBLEUScore": "results",
    "CodeBLEUComponents": "results",
    "RougeLScore": "results",
    "RougeComponents": "results",
}

__all__ = [
    "CodeBLEUComponents", "CodeBLEUScore", "CodeParseError", "Finding", "HallucinationCheck",
    "RougeComponents",
    "RougeLScore", "find_hallucinations", "hallucination_rate", "mean_fidelity", "partial_credit", "pass_at_k",
    "pass_at_k_ci", "rouge_l",
]
assert sorted(__all__) == sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return __all__
