"""Judges: one per benchmark, all returning the common Verdict (see judges/base.py).

``FunctionTestJudge`` (``judges/function_test/``) is the base of a judge that calls the
candidate's function and checks the result in a trusted process: a subclass is its test."""

from typing import Any

__all__ = ["FunctionTestJudge"]


def __getattr__(name: str) -> Any:  # lazily: importing one judge does not load the others
    if name == "FunctionTestJudge":
        from .function_test import FunctionTestJudge

        return FunctionTestJudge
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
