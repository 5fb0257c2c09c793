"""The calling convention of the pairwise metrics: ``references=`` and ``predictions=`` by
keyword, so the two lists cannot be swapped by accident. Positional calls still work in this
release, with a :class:`DeprecationWarning` naming the metric."""

from __future__ import annotations

import warnings
from typing import Any


def keyword_pairs(metric: str, args: tuple[Any, ...], references: Any,
                  predictions: Any) -> tuple[Any, Any]:
    """``(references, predictions)`` of a call that may still pass them positionally."""
    if args:
        if len(args) > 2 or references is not None or (len(args) == 2 and predictions is not None):
            raise TypeError(f"{metric}: pass references= and predictions= by keyword "
                            f"(got {len(args)} positional arguments and keywords)")
        warnings.warn(f"{metric}(references, predictions) by position is deprecated and stops "
                      f"working in the next release: call {metric}(references=..., "
                      "predictions=...)", DeprecationWarning, stacklevel=3)
        references = args[0]
        if len(args) == 2:
            predictions = args[1]
    if references is None or predictions is None:
        missing = " and ".join(n for n, v in (("references", references),
                                               ("predictions", predictions)) if v is None)
        raise TypeError(f"{metric}: missing {missing}= (keyword arguments)")
    return references, predictions
