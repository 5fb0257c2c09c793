"""Fixtures for the QHack tests: the dataset built once from the upstream folder, the judge."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def qhack_source(upstream: Path) -> Path:
    src = upstream / "qhack"
    if not (src / "SOURCES.md").is_file():
        pytest.fail(f"upstream QHack material missing: {src}/SOURCES.md")
    return src


@pytest.fixture(scope="session")
def qhack_data(qhack_source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The dataset folder, built by the real builder."""
    from quantum_codegen_eval.loaders.qhack import build

    out = tmp_path_factory.mktemp("qhack-dataset")
    build(qhack_source, out)
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
