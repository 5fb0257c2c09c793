"""The evaluator's work per completion is bounded (issue 17: a crafted completion made the
parent's static check use over 1 GB). Measured in a fresh process with real crafted input: the
growth of its peak RSS while the judge plans the jobs (tests/support/peak_rss.py)."""

from __future__ import annotations

import time

import pytest
from peak_rss import run_fresh, start_window

from quantum_codegen_eval.judges.qcoder import judge as judge_mod

pytestmark = pytest.mark.upstream


def plan(data: str, size: int) -> dict:
    """The judge's plan for ``size`` characters of code (measured: the plan, not the input)."""
    from quantum_codegen_eval.benchmarks.qcoder import problems
    from quantum_codegen_eval.judges.qcoder import QCoderJudge

    rec = problems(data_dir=data)["QPC001_A1"]
    code = "x = [1, 2, 3]\n" * (size // 14)
    judge = QCoderJudge()
    start_window()
    t = time.process_time()
    out = judge.jobs(rec, code)
    return {"cpu": time.process_time() - t, "planned": isinstance(out, list),
            "message": "" if isinstance(out, list) else out.message,
            "judge_error": not isinstance(out, list) and out.judge_error}


def _probe(data, size: int) -> dict:
    peak = run_fresh(plan, str(data), size)
    return {**peak.result, "growth_mb": peak.growth_mb, "peak_mb": peak.peak_mb}


def test_past_the_bound_nothing_is_parsed(qcoder_data):
    """20 MB of code: 8.2 GB and 107 s of CPU in the evaluator before; now a judge error."""
    r = _probe(qcoder_data, 20_000_000)
    assert not r["planned"] and r["judge_error"] and "judge limit" in r["message"], r
    assert r["growth_mb"] < 64, r


def test_at_the_bound_the_parse_stays_small(qcoder_data):
    r = _probe(qcoder_data, judge_mod.MAX_CODE_CHARS - 100)
    assert r["planned"], r
    assert r["growth_mb"] < 400, r
