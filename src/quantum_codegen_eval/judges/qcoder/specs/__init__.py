"""The 67 QCoder specs, one module per contest (``qpc001`` ... ``qpc005``), found with pkgutil.

Trusted side only: these modules hold the hidden oracle functions, and give the judge the reference
and wrong solutions of ``judges/qcoder/programs/`` (``base.program``), so nothing here is ever
imported by (or readable from) the job that runs a completion.

>>> spec = get_spec("QPC001_A2")
>>> [c["args"]["n"] for c in spec.sample(__import__("random").Random(0))][:3]
[1, 2, 3]
"""

from __future__ import annotations

import importlib
import pkgutil
import re

from .base import REGISTRY, Spec

__all__ = ["Spec", "all_specs", "contest_modules", "get_spec"]

_CONTEST = re.compile(r"qpc\d{3}$")


def contest_modules() -> list[str]:
    """The contest modules of this package (``qpcNNN``), discovered, in order."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if _CONTEST.match(m.name))


def all_specs() -> dict[str, Spec]:
    for name in contest_modules():
        importlib.import_module(f"{__name__}.{name}")
    return dict(sorted(REGISTRY.items()))


def get_spec(problem_id: str) -> Spec:
    specs = all_specs()
    if problem_id not in specs:
        raise KeyError(f"no QCoder judge spec for problem {problem_id!r}")
    return specs[problem_id]
