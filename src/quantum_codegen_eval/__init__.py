"""quantum-codegen-eval: evaluate LLM-generated quantum code.

The public API is small; everything else lives in submodules::

    from quantum_codegen_eval import (
        load_benchmark, evaluate, pass_at_k, codebleu, rouge_l, find_hallucinations, Sandbox,
    )

Names are imported lazily, so ``import quantum_codegen_eval`` stays cheap and the metrics work
without PennyLane or Qiskit installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what editors and type checkers see; at run time names load on first use
    from .benchmarks import load_benchmark
    from .benchmarks.base import Benchmark
    from .evaluate import EvaluationInterrupted, evaluate
    from .execution.sandbox import Sandbox
    from .feedback import feedback_prompt
    from .metrics.codebleu import codebleu
    from .metrics.hallucination import find_hallucinations
    from .metrics.passk import pass_at_k
    from .metrics.rouge import rouge_l
    from .rag import rag_prompts
    from .refinement import refine, refine_all
    from .report import Report
    from .synthesis import synthesize
    from .verdict import Verdict, classify_error

#: the one declaration of the version (pyproject.toml reads it; CITATION.cff repeats it, a test
#: checks that they agree)
__version__ = "0.1.0"

_EXPORTS = {
    "load_benchmark": "quantum_codegen_eval.benchmarks",
    "Benchmark": "quantum_codegen_eval.benchmarks.base",
    "EvaluationInterrupted": "quantum_codegen_eval.evaluate",
    "classify_error": "quantum_codegen_eval.verdict",
    "evaluate": "quantum_codegen_eval.evaluate",
    "Report": "quantum_codegen_eval.report",
    "pass_at_k": "quantum_codegen_eval.metrics.passk",
    "codebleu": "quantum_codegen_eval.metrics.codebleu",
    "rouge_l": "quantum_codegen_eval.metrics.rouge",
    "find_hallucinations": "quantum_codegen_eval.metrics.hallucination",
    "Sandbox": "quantum_codegen_eval.execution.sandbox",
    "Verdict": "quantum_codegen_eval.verdict",
    "refine": "quantum_codegen_eval.refinement",
    "refine_all": "quantum_codegen_eval.refinement",
    "feedback_prompt": "quantum_codegen_eval.feedback",
    "rag_prompts": "quantum_codegen_eval.rag",
    "synthesize": "quantum_codegen_eval.synthesis",
}

__all__ = [  # the keys of _EXPORTS (tests/core/test_packaging.py checks), spelled out for linters
    "Benchmark", "EvaluationInterrupted", "Report", "Sandbox", "Verdict", "__version__",
    "classify_error", "codebleu", "evaluate", "feedback_prompt", "find_hallucinations",
    "load_benchmark", "pass_at_k", "refine", "refine_all", "rouge_l",
    "rag_prompts", "synthesize",
]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'quantum_codegen_eval' has no attribute {name!r}")


def __dir__() -> list[str]:
    return __all__
