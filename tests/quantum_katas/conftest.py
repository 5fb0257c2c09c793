"""Fixtures for the Quantum Katas tests: a dataset folder built from upstream, one sandbox."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.loaders import quantum_katas as builder


@pytest.fixture(scope="session")
def katas_dir(github_url, tmp_path_factory):
    """Built through the real download path (the archive from ``github_url``, verified)."""
    out = tmp_path_factory.mktemp("quantum_katas")
    summary = builder.build(None, out, progress=False)
    assert summary["counts"] == {"default": 350}
    return out


@pytest.fixture(scope="session")
def sandbox():
    from quantum_codegen_eval.execution import Sandbox

    with Sandbox() as sb:
        yield sb
