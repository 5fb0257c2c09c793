"""Ctrl-C during `qce evaluate`: results already judged stay in the store, in-flight jobs are
stopped within seconds, one line says how many results were kept and how to resume; exit 130.

Stopping in-flight jobs relies on ``Sandbox.close()`` killing the jobs still running.
"""

from __future__ import annotations

import time

import pytest
from ctrl_c import alive, descendants, interrupt_qce, write_predictions
from sample_answers import BELL, RIGHT, SLEEP


@pytest.mark.slow  # several seconds of real processes: not in the fast tier
def test_ctrl_c_keeps_results_stops_jobs_and_says_how_to_resume(tmp_path):
    preds = write_predictions(tmp_path / "p.jsonl", [RIGHT] * 3 + [SLEEP] * 4)
    out = tmp_path / "out"
    store = out / "results.jsonl"
    args = ["evaluate", str(preds), "--benchmark", "sample", "--config", "qiskit",
            "--out", str(out), "-k", "1", "--workers", "2"]
    # the sleepers are running 2 s after the third result
    stopped = interrupt_qce(args, store, results=3, settle=2, wait=180, spawned=descendants)
    assert len(stopped.spawned) >= 2, stopped.spawned  # zygotes and the jobs they forked
    assert stopped.returncode == 130, stopped.stderr
    assert "Traceback" not in stopped.stderr
    last = stopped.stderr.strip().splitlines()[-1]
    assert "interrupted; 3 of 7 results kept in" in last
    assert f"resume with: qce {' '.join(args)} --resume" in last
    assert sorted(stopped.stored_keys(store)) == [f"{BELL}#{i}" for i in range(3)]
    # nothing of the run is left behind: every process it started is gone
    time.sleep(1)
    assert not [pid for pid in stopped.spawned if alive(pid)]
    assert stopped.seconds < 10, f"took {stopped.seconds:.1f} s to stop"
