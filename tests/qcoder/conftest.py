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
    """Judge [(record, completion), ...] through every stage, one parallel batch per stage."""
    from quantum_codegen_eval.judges.base import judge_many

    return judge_many(judge, items, sandbox)


@pytest.fixture(scope="session")
def verdict_table():
    return _verdict_table


def _verdict_table(sandbox, records, checked, runtime):
    """Verdicts by case name for ``(name, problem id, code, status, text)`` cases: ``checked``
    through the whole judge, ``runtime`` with the static UME rule switched off (the run-time
    layer on its own)."""
    from quantum_codegen_eval.judges.qcoder import QCoderJudge
    from quantum_codegen_eval.judges.qcoder import judge as judge_mod

    judge = QCoderJudge(timeout=60)

    def run(cases):
        return _judge_many(sandbox, judge, [(records[p], c) for _, p, c, _, _ in cases])

    static = run(checked)
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(judge_mod, "static_imports", lambda code, allowed: [])
        dynamic = run(runtime)
    finally:
        mp.undo()
    return dict(zip([c[0] for c in [*checked, *runtime]], static + dynamic, strict=True))
