"""The evaluator's work per completion is bounded (issue 17: a crafted completion made the
parent's static check use over 1 GB). Measured in a fresh process with real crafted input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from quantum_codegen_eval.judges.qcoder import judge as judge_mod

pytestmark = pytest.mark.upstream

PROBE = """
import json, resource, sys, time
from quantum_codegen_eval.benchmarks.qcoder import problems
from quantum_codegen_eval.judges.qcoder import QCoderJudge
rec = problems(data_dir=sys.argv[1])["QPC001_A1"]
size = int(sys.argv[2])
code = "x = [1, 2, 3]\\n" * (size // 14)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.process_time()
out = QCoderJudge().jobs(rec, code)
print(json.dumps({"peak_mb": (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024,
                  "cpu": time.process_time() - t, "planned": isinstance(out, list),
                  "message": "" if isinstance(out, list) else out.message,
                  "judge_error": not isinstance(out, list) and out.judge_error}))
"""


def _probe(data: str, size: int) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE, data, str(size)], capture_output=True,
                         text=True, timeout=600, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_past_the_bound_nothing_is_parsed(qcoder_data):
    """20 MB of code: 8.2 GB and 107 s of CPU in the evaluator before; now a judge error."""
    r = _probe(str(qcoder_data), 20_000_000)
    assert not r["planned"] and r["judge_error"] and "judge limit" in r["message"], r
    assert r["peak_mb"] < 64, r


def test_at_the_bound_the_parse_stays_small(qcoder_data):
    r = _probe(str(qcoder_data), judge_mod.MAX_CODE_CHARS - 100)
    assert r["planned"], r
    assert r["peak_mb"] < 400, r
