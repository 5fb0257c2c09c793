"""Fixtures for the QCoder tests: the dataset built from upstream, and one shared sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def qcoder_source(upstream: Path) -> Path:
    """The unpacked upstream repository (``QCoder-Benchmark-<commit>/``; ``--source`` accepts it)."""
    (root,) = (upstream / "qcoder").iterdir()
    return root


@pytest.fixture(scope="session")
def qcoder_data(github_url: str, tmp_path_factory) -> Path:
    """Built through the real download path, with the sample submissions."""
    from quantum_codegen_eval.loaders.qcoder import build

    out = tmp_path_factory.mktemp("qcoder_ds")
    build(None, out, progress=False, submissions=str(DATA / "sample_submissions.jsonl"))
    return out


@pytest.fixture(scope="session")
def qcoder_records(qcoder_data: Path):
    from quantum_codegen_eval.benchmarks.qcoder import problems

    return problems(data_dir=qcoder_data)


@pytest.fixture(scope="session")
def qsandbox():
    from quantum_codegen_eval.execution import Sandbox

    with Sandbox(workers=2) as sb:
        yield sb


@pytest.fixture(scope="session")
def judge_many():
    return _judge_many


def _judge_many(sandbox, judge, items):
    """Judge [(record, completion), ...] with one parallel sandbox batch; verdicts in order."""
    plans = [judge.jobs(rec, code) for rec, code in items]
    jobs = [p[0] for p in plans if isinstance(p, list)]
    results = iter(sandbox.run_jobs(jobs))
    return [p if not isinstance(p, list) else judge.decide(rec, code, [next(results)])
            for (rec, code), p in zip(items, plans, strict=True)]
