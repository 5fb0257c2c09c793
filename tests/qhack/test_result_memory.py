"""The memory of the trusted side is bounded per result (docs/benchmarks/qhack.md, *Bounds on
what the program returns*).

A crafted program forges its result file: 42 MB of one-key JSON objects (3.5 million of them)
in place of its output (under the 48 MB read back). Parsed, that is about 1 GB in the judge's own process (the file was read
whole: the judge used over 1 GB, and the trusted job as much again). Now the judge estimates
from the raw bytes what parsing would cost (``parsed_cost``): past the bound the output is a
wrong answer, decided without parsing. A forged output just under the bound reaches the trusted
job (a verdict, never a judge error); the evaluator keeps no parsed result, and each stays under
500 MB. The judge's growth is its peak
RSS (``VmHWM``) in a fresh interpreter while it runs the jobs and decides, over its RSS before
(tests/support/peak_rss.py); a job's is the sandbox's ``peak_memory_mb``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from peak_rss import run_fresh, start_window

from quantum_codegen_eval.judges.base import parsed_cost
from quantum_codegen_eval.judges.qhack.judge import MAX_PARSED_BYTES

pytestmark = [pytest.mark.slow, pytest.mark.upstream]

#: writes its own result file (n one-key objects as the output) and leaves before the runner
FORGER = '''
import os


def add_numbers(x, y):
    with open("qce_result.json", "w") as fh:
        fh.write('{{"output": {{"list": [')
        fh.write(",".join(['{{"none": 0}}'] * {n}))
        fh.write("]}}}}")
    os._exit(0)
'''

#: the same for a recorded replay: a valid output and a record of n empty arrays, which the judge
#: passes on undecoded to the trusted job
RECORD_FORGER = '''
import os


def is_safe_configuration(oracle):
    with open("qce_result.json", "w") as fh:
        fh.write('{{"output": "No output", "record": {{"calls": {{"junk": [["k", [')
        fh.write(",".join(["[]"] * {n}))
        fh.write("]]]}}}}}}")
    os._exit(0)
'''


def judge_once(data_dir: str, challenge: str, code: str) -> dict:
    """Judge ``code`` (measured: running its jobs and deciding), with the jobs' peaks."""
    from quantum_codegen_eval.benchmarks import qhack
    from quantum_codegen_eval.execution import Sandbox
    from quantum_codegen_eval.judges.base import code_of

    record = qhack.problems("all", data_dir=data_dir)[challenge]
    judge = qhack.make_judge(env="era")
    code = code_of(judge, code)  # the driver's extraction
    with Sandbox() as sb:
        jobs = judge.jobs(record, code)
        start_window()
        results = [sb.run_job(j) for j in jobs]
        step = judge.decide(record, code, results)
        trusted = None
        if isinstance(step, list):
            extra = [sb.run_job(j) for j in step]
            trusted = max(r.peak_memory_mb for r in extra)
            step = judge.decide(record, code, results + extra)
    return {"status": step.status, "message": step.message[:500],
            "judge_error": step.details.get("judge_error"), "trusted_peak_mb": trusted,
            "program_peak_mb": max(r.peak_memory_mb for r in results)}


def _probe(qhack_data: Path, challenge: str, source: str) -> dict:
    peak = run_fresh(judge_once, str(qhack_data), challenge, source, timeout=900)
    return {**peak.result, "judge_growth_mb": peak.growth_mb, "judge_peak_mb": peak.peak_mb}


def test_huge_forged_output_is_wa_without_parsing(qhack_data):
    got = _probe(qhack_data, "2023/tutorial_1", FORGER.format(n=3_500_000))
    assert got["status"] == "WA" and "it would take about" in got["message"], got
    assert got["judge_growth_mb"] < 300, got  # the raw bytes only; parsed, it was ~1 GB
    assert got["trusted_peak_mb"] is None  # decided before any trusted job


def test_forged_output_under_the_bound_is_a_verdict(qhack_data):
    """Issue 36's bound: the evaluator and the trusted job each under 500 MB (the evaluator
    peaked at 664 MB with the bound at 512 MB and every parsed result kept until the trusted
    job; it now keeps none, and the trusted job parses one test's result at a time)."""
    n = 3_000_000  # empty arrays in a forged record: just under the bound
    assert parsed_cost(b"[]," * n) < MAX_PARSED_BYTES < parsed_cost(b"[]," * (n + 200_000))
    got = _probe(qhack_data, "2024/fireworks_qutropolis", RECORD_FORGER.format(n=n))
    assert got["status"] in ("WA", "MLE", "TLE") and not got["judge_error"], got
    assert got["trusted_peak_mb"] is not None, got  # it reached the trusted job
    assert got["judge_peak_mb"] < 500, got
    assert got["trusted_peak_mb"] < 500, got
