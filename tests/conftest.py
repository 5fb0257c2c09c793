"""Shared fixtures. Area-specific fixtures live in tests/<area>/conftest.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def upstream_dir() -> Path | None:
    """The upstream benchmark material: $QCE_UPSTREAM, else ../shared/benchmarks beside the repo."""
    env = os.environ.get("QCE_UPSTREAM")
    if env:
        path = Path(env)
        if not path.is_dir():
            raise RuntimeError(f"QCE_UPSTREAM={env} is not a folder")
        return path
    guess = REPO.parent / "shared" / "benchmarks"
    return guess if guess.is_dir() else None


@pytest.fixture(scope="session")
def upstream() -> Path:
    path = upstream_dir()
    if path is None:
        if os.environ.get("CI"):
            raise RuntimeError("CI run without upstream material: set QCE_UPSTREAM")
        pytest.skip("upstream material not found: set QCE_UPSTREAM")
    return path
