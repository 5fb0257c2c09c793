"""The user's functions named on the command line: ``module:function`` (a ``generate`` for
``qce synthesize``, an ``embed`` or ``expand`` for ``qce prompts --rag``)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

from .benchmarks.base import UsageError


def load_callable(spec: str, what: str = "function") -> Callable[..., Any]:
    """The callable ``module:attr`` (``attr`` may be dotted, e.g. ``mymod:Model.encode`` of a
    module-level object); the current folder is importable, as for ``python -m``."""
    module, sep, attr = spec.partition(":")
    if not sep or not module or not attr:
        raise UsageError(f"{what} {spec!r}: expected module:function")
    if "" not in sys.path:
        sys.path.insert(0, "")
    try:
        obj: Any = importlib.import_module(module)
    except ImportError as exc:
        raise UsageError(f"{what} {spec!r}: cannot import {module} ({exc})") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise UsageError(f"{what} {spec!r}: {module} has no {attr}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise UsageError(f"{what} {spec!r}: {attr} is not callable")
    return obj
