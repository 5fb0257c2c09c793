"""Fixtures for the Qiskit HumanEval tests: a dataset folder built from upstream, one sandbox."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.loaders import qiskit_humaneval as builder


@pytest.fixture(scope="session")
def qhe_dir(github_url, tmp_path_factory):
    """Built through the real download path (the archive from ``github_url``, verified)."""
    out = tmp_path_factory.mktemp("qiskit_humaneval")
    summary = builder.build(None, out, progress=False)
    assert summary["counts"] == {"normal": 151, "hard": 151}
    return out


@pytest.fixture(scope="session")
def sandbox():
    from quantum_codegen_eval.execution import Sandbox

    with Sandbox() as sb:
        yield sb
