"""The repository's pyproject.toml as a dict: ``tomllib`` from Python 3.11, ``tomli`` (the
test extra installs it) on 3.10."""

from __future__ import annotations

from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]


def pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text())
