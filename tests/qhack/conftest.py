"""Fixtures for the QHack tests: the dataset built once from the upstream folder, the judge."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def _archives() -> Path:
    """The upstream archives as codeload serves them ($QCE_GITHUB_URL=file://..., else
    shared/upstream/github beside the repository or one of its parents)."""
    url = os.environ.get("QCE_GITHUB_URL", "")
    if url.startswith("file://"):
        return Path(url[len("file://"):])
    for parent in Path(__file__).resolve().parents[2:]:
        if (parent / "shared" / "upstream" / "github").is_dir():
            return parent / "shared" / "upstream" / "github"
    pytest.fail("upstream archives not found: set QCE_GITHUB_URL=file://<.../upstream/github>")


@pytest.fixture(scope="session")
def qhack_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three QHack repositories at their pinned commits, unpacked from the archives."""
    from quantum_codegen_eval.loaders.qhack import manifest, unpack

    out = tmp_path_factory.mktemp("qhack-upstream")
    for repo in manifest()["repositories"].values():
        archive = _archives() / repo["repo"] / "tar.gz" / repo["commit"]
        if not archive.is_file():
            pytest.fail(f"upstream QHack archive missing: {archive}")
        unpack(archive, out)
    return out


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
