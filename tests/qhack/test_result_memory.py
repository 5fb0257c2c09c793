"""The memory of the trusted side is bounded per result (docs/benchmarks/qhack.md, *Bounds on
what the program returns*).

A crafted program forges its result file: 42 MB of one-key JSON objects (3.5 million of them)
in place of its output (under the 48 MB read back). Parsed, that is about 1 GB in the judge's own process (the file was read
whole: the judge used over 1 GB, and the trusted job as much again). Now the judge estimates
from the raw bytes what parsing would cost (``parsed_cost``): past the bound the output is a
wrong answer, decided without parsing. A forged output just under the bound reaches the trusted job, whose memory is
then bounded by its own limits (a verdict, never a judge error). Peak memory is measured with
``resource.getrusage`` in a fresh interpreter (tests/qhack/_memory_probe.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from quantum_codegen_eval.judges.qhack.judge import MAX_PARSED_BYTES, parsed_cost

pytestmark = [pytest.mark.slow, pytest.mark.upstream]

PROBE = Path(__file__).with_name("_memory_probe.py")

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


def _probe(qhack_data: Path, tmp_path: Path, challenge: str, source: str) -> dict:
    program = tmp_path / "forger.py"
    program.write_text(source)
    out = subprocess.run([sys.executable, str(PROBE), str(qhack_data), challenge, str(program)],
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_huge_forged_output_is_wa_without_parsing(qhack_data, tmp_path):
    got = _probe(qhack_data, tmp_path, "2023/tutorial_1", FORGER.format(n=3_500_000))
    assert got["status"] == "WA" and "it would take about" in got["message"], got
    assert got["judge_growth_mb"] < 300, got  # the raw bytes only; parsed, it was ~1 GB
    assert got["trusted_peak_mb"] is None  # decided before any trusted job


def test_forged_output_under_the_bound_is_a_verdict(qhack_data, tmp_path):
    n = 6_000_000  # empty arrays in a forged record: just under the bound
    assert parsed_cost(b"[]," * n) < MAX_PARSED_BYTES < parsed_cost(b"[]," * (n + 400_000))
    got = _probe(qhack_data, tmp_path, "2024/fireworks_qutropolis", RECORD_FORGER.format(n=n))
    assert got["status"] in ("WA", "MLE", "TLE") and not got["judge_error"], got
    assert got["trusted_peak_mb"] is not None, got  # it reached the trusted job
    assert got["judge_growth_mb"] < MAX_PARSED_BYTES / 1e6, got
    assert got["trusted_peak_mb"] < 2 * MAX_PARSED_BYTES / 1e6, got
