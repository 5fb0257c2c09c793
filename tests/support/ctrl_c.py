"""Ctrl-C in a real ``qce`` process: start it, wait until its result store holds some results
while slow jobs still run, send SIGINT, and report how it stopped. Shared by the local-pool and
the cluster interrupt tests."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sample_answers import BELL


def write_predictions(path: Path, completions: list[str]) -> Path:
    """One JSONL row of BELL per completion, sample ``i`` for the ``i``-th."""
    path.write_text("".join(json.dumps({"id": BELL, "sample": i, "completion": c}) + "\n"
                            for i, c in enumerate(completions)))
    return path


@dataclass(frozen=True)
class Stopped:
    """How the interrupted process ended."""

    returncode: int
    stderr: str
    seconds: float  #: from SIGINT to exit
    spawned: frozenset[int]  #: its descendants just before the signal (``spawned`` given)

    def stored_keys(self, store: Path) -> list[str]:
        return [json.loads(line)["key"] for line in store.read_text().splitlines()]


def interrupt_qce(args: list[str], store: Path, *, results: int, settle: float,
                  wait: float = 300, timeout: float = 200,
                  spawned: Callable[[int], set[int]] | None = None) -> Stopped:
    """Run ``qce ARGS``; once ``store`` holds ``results`` lines, let the slow jobs start
    (``settle`` s), collect ``spawned(pid)``, send SIGINT and wait for the exit (``timeout`` s).
    The process is killed if the test fails on the way."""
    proc = subprocess.Popen([sys.executable, "-m", "quantum_codegen_eval", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and not (
                store.exists() and len(store.read_text().splitlines()) >= results):
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.2)
        time.sleep(settle)
        assert proc.poll() is None, proc.communicate()
        before = frozenset(spawned(proc.pid)) if spawned else frozenset()
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=timeout)
        return Stopped(proc.returncode, err, time.monotonic() - sent, before)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` now (from /proc)."""
    tree: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        tree.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    """The process exists and is no zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
