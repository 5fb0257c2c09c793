"""Fixtures for the QHack tests: the dataset built once from the upstream archives, the judge."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def qhack_source(upstream: Path) -> Path:
    """A folder holding the three unpacked upstream repositories (``--source`` accepts it)."""
    return upstream / "qhack"


@pytest.fixture(scope="session")
def qhack_data(github_url: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The dataset folder, built by the real builder through the real download path."""
    from quantum_codegen_eval.benchmarks.base import get
    from quantum_codegen_eval.datasets_cache import build_dataset

    out = tmp_path_factory.mktemp("qhack-dataset")
    build_dataset(get("qhack"), out, progress=False)
    return out


@pytest.fixture(scope="session")
def qhack_problems(qhack_data: Path) -> dict:
    from quantum_codegen_eval.benchmarks import qhack

    return qhack.problems("all", data_dir=qhack_data)


@pytest.fixture(scope="session")
def sandbox():
    from quantum_codegen_eval.execution import Sandbox

    with Sandbox() as sb:
        yield sb
