"""Reproducibility signatures for metric outputs, in the manner of sacrebleu.

A signature is ``key:value`` pairs joined by ``|``, always starting with the metric name and
ending with the package version, e.g.
``codebleu|variant:quantum|lang:python|weights:0.25,0.25,0.25,0.25|qml_weight:3|tree-sitter:0.26.1|qce:0.1.0``.

>>> make_signature("rouge_l", tokenizer="code")  # doctest: +ELLIPSIS
'rouge_l|tokenizer:code|qce:...'
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import metadata


def package_version(dist: str) -> str:
    """Installed version of a distribution, or ``none``."""
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "none"


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)) or (isinstance(value, Iterable) and not isinstance(value, str)):
        return ",".join(_fmt(v) for v in value)
    return str(value)


def make_signature(name: str, **fields: object) -> str:
    """Build ``name|k:v|...|qce:<version>``; fields keep the order given."""
    parts = [name] + [f"{k}:{_fmt(v)}" for k, v in fields.items()]
    parts.append(f"qce:{package_version('quantum-codegen-eval')}")
    return "|".join(parts)
