"""A QHack run whose era environment is missing says so before it builds it, and before the
judging bar starts (issue 21: it sat at "judging (starting workers): 0/9" for 7 minutes).

The environment is "missing" in a fresh cache (``QCE_CACHE``); the run is stopped once the line
is out, so nothing is downloaded and the machine's environments are never touched."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = [pytest.mark.upstream]


def test_missing_era_environment_is_announced_before_judging(qhack_data, qhack_problems,
                                                             tmp_path):
    pid = next(p for p in sorted(qhack_problems) if p.startswith("2024/"))
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"id": pid, "completion": "```python\nx = 1\n```"}) + "\n")
    cache = tmp_path / "cache"
    cache.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "quantum_codegen_eval", "evaluate", str(preds), "--benchmark",
         "qhack", "--config", "2024", "--data-dir", str(qhack_data), "--out", str(tmp_path / "out")],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, start_new_session=True,
        env={**os.environ, "QCE_CACHE": str(cache)})
    seen: list[str] = []
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line:
                break
            seen.append(line.rstrip("\n"))
            if "creating the" in line:
                break
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert seen and seen[-1] == (
        "qce: creating the PennyLane 0.34.0 environment for QHack 2024 (qhack-2024): downloading "
        "and installing 15 pinned packages, once, usually a few minutes (`qce env create "
        "qhack-2024` does it ahead) ..."), seen
    assert not any("judging" in line for line in seen), seen  # the bar starts after it
    assert not (cache / "envs" / "qhack-2024" / "qce-env.json").exists()
