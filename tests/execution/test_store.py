"""The result store: append + fsync, torn tails, no duplicates, resume after kill -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from quantum_codegen_eval.execution import Job, ResultStore, RunResult, run_resumable


def test_add_done_get_and_reload(tmp_path):
    path = tmp_path / "r.jsonl"
    with ResultStore(path) as store:
        assert store.add({"id": "a", "status": "ok"})
        assert store.add(RunResult(id="b", status="error", exit_code=1, files={"f": b"\x00"}))
        assert not store.add({"id": "a", "status": "error"})  # first result wins
        assert store.done() == {"a", "b"}
    again = ResultStore(path)
    assert again.done() == {"a", "b"} and len(again) == 2
    assert again.get("a")["status"] == "ok"
    assert again.result("b").files == {"f": b"\x00"}
    assert len(path.read_text().splitlines()) == 2


def test_torn_last_line_is_dropped_and_cut_before_the_next_append(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"id": "a", "status": "ok"}\n{"id": "b", "sta')
    store = ResultStore(path)
    assert store.done() == {"a"}
    store.add({"id": "b", "status": "ok"})
    store.close()
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [x["id"] for x in lines] == ["a", "b"]


def test_corrupt_middle_line_names_the_file(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"id": "a"}\nnot json\n{"id": "c"}\n')
    with pytest.raises(ValueError, match="r.jsonl: corrupt record at byte 12"):
        ResultStore(path)


def test_record_without_id_is_rejected(tmp_path):
    with pytest.raises(ValueError, match="record without 'id'"):
        ResultStore(tmp_path / "r.jsonl").add({"status": "ok"})


def test_run_resumable_rejects_duplicate_ids(tmp_path, light_sandbox):
    with pytest.raises(ValueError, match="duplicate job id 'x'"):
        list(run_resumable(light_sandbox, [Job("1", id="x"), Job("2", id="x")],
                           ResultStore(tmp_path / "r.jsonl")))


SCRIPT = """
import os, sys
from quantum_codegen_eval.execution import Job, ResultStore, Sandbox, run_resumable
jobs = [Job(f"import time; time.sleep(0.2); print({i})", id=f"s{i}") for i in range(N)]
with Sandbox(workers=2, preload=()) as sb:
    for r in run_resumable(sb, jobs, ResultStore(sys.argv[1])):
        pids = [z.pid for s in sb._all_slots for z in s.zygotes.values()]
        open(sys.argv[2] + ".tmp", "w").write(" ".join(map(str, pids)))
        os.replace(sys.argv[2] + ".tmp", sys.argv[2])  # the kill may come mid-write
"""


def _running(pid: int) -> bool:
    """``pid`` exists and is not a zombie (an orphan's exit waits for PID 1 to reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_kill_9_then_resume_redoes_nothing_and_loses_nothing(tmp_path, light_sandbox):
    n = 24
    path = tmp_path / "r.jsonl"
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(SCRIPT).replace("N)", f"{n})"))
    proc = subprocess.Popen([sys.executable, str(script), str(path), str(tmp_path / "pids")], start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if path.exists() and len(path.read_bytes().splitlines()) >= 4:
            break
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with open(path, "ab") as f:
        f.write(b'{"id": "s99", "stat')  # as if killed in the middle of a write
    first = ResultStore(path).done()
    assert 4 <= len(first) < n
    new = list(run_resumable(light_sandbox, [Job(f"print({i})", id=f"s{i}") for i in range(n)],
                             ResultStore(path)))
    assert {r.id for r in new} == {f"s{i}" for i in range(n)} - first
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    ids = [x["id"] for x in lines]
    assert sorted(ids) == sorted(f"s{i}" for i in range(n)) and len(ids) == len(set(ids))
    assert all(x["status"] == "ok" and x["stdout"] == f"{x['id'][1:]}\n" for x in lines)
    # the killed evaluator's workers noticed and left
    pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
    assert pids
    deadline = time.monotonic() + 10
    while any(_running(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_running(p) for p in pids)
