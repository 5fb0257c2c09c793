"""Ctrl-C during `qce evaluate`: results already judged stay in the store, in-flight jobs are
stopped within seconds, one line says how many results were kept and how to resume; exit 130.

Stopping in-flight jobs relies on ``Sandbox.close()`` killing the jobs still running.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path


def _children() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    return out


def _descendants(pid: int) -> set[int]:
    tree, found, todo = _children(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


QCE = [sys.executable, "-m", "quantum_codegen_eval"]
BELL = "sample/qk_bell_circuit"
RIGHT = ("```python\ndef bell_circuit():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    qc.cx(0, 1)\n"
         "    return qc\n```")
SLEEP = "```python\ndef bell_circuit():\n    import time\n    time.sleep(120)\n```"


def test_ctrl_c_keeps_results_stops_jobs_and_says_how_to_resume(tmp_path):
    preds = tmp_path / "p.jsonl"
    quick = [{"id": BELL, "sample": i, "completion": RIGHT} for i in range(3)]
    slow = [{"id": BELL, "sample": 3 + i, "completion": SLEEP} for i in range(4)]
    preds.write_text("".join(json.dumps(r) + "\n" for r in quick + slow))
    out = tmp_path / "out"
    store = out / "results.jsonl"
    args = ["evaluate", str(preds), "--benchmark", "sample", "--config", "qiskit",
            "--out", str(out), "-k", "1", "--workers", "2"]
    proc = subprocess.Popen([*QCE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not (
                store.exists() and len(store.read_text().splitlines()) >= 3):
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.2)
        time.sleep(2)  # the sleepers are running now
        assert proc.poll() is None
        spawned = _descendants(proc.pid)  # zygotes and the jobs they forked
        assert len(spawned) >= 2, spawned
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=200)
        stopped = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert "interrupted; 3 of 7 results kept in" in last
    assert f"resume with: qce {' '.join(args)} --resume" in last
    keys = [json.loads(line)["key"] for line in store.read_text().splitlines()]
    assert sorted(keys) == [f"{BELL}#{i}" for i in range(3)]
    # nothing of the run is left behind: every process it started is gone
    time.sleep(1)
    assert not [pid for pid in spawned if _alive(pid)]
    assert stopped < 10, f"took {stopped:.1f} s to stop"
