"""What a running job has cost, read from ``/proc``, for limits that do not depend on load.

Two facts per job, both read by the supervising evaluator while the job runs:

* **CPU of the whole job** (:func:`tree_cpu`): user + system time of every process the job
  started, live or zombie, plus what they reaped (``cutime``/``cstime``). ``RLIMIT_CPU`` bounds
  each process on its own; a job that forks spinning children would otherwise spend many limits
  and slow its neighbours without being charged.
* **Time spent waiting for a CPU** (:func:`queued_seconds`): the run-queue delay of the job's
  threads (``/proc/<pid>/task/<tid>/schedstat``, second field). On a busy machine a job that wants
  to run waits; the wall-clock backstop counts only time the job was not kept waiting, so a
  program's verdict does not depend on what else the machine runs. A job that sleeps or blocks
  is not waiting for a CPU: the backstop still catches it.

The job's processes are the descendants of a root (the worker that forked the job: as a child
subreaper it inherits the job's orphans, so a double fork does not leave the tree). Linux only;
elsewhere both read as zero and only the rlimits and the plain wall clock apply.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
#: the most processes one tree walk visits (a job's process limit is far below)
MAX_PROCESSES = 4096


def _read(path: str) -> str | None:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def _tasks(pid: int) -> list[str]:
    try:
        return os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []


def descendants(root: int, *, include_root: bool = False,
                exclude: Iterable[int] = ()) -> list[int]:
    """Every live or zombie process below ``root`` (``/proc/<pid>/task/<tid>/children``), but
    the processes ``exclude`` and their own subtrees (a zygote's clones: another slot's)."""
    out: list[int] = [root] if include_root else []
    stack, seen = [root], {root, *exclude}
    while stack and len(seen) < MAX_PROCESSES:
        pid = stack.pop()
        for tid in _tasks(pid):
            text = _read(f"/proc/{pid}/task/{tid}/children") or ""
            for child in text.split():
                c = int(child)
                if c not in seen:
                    seen.add(c)
                    out.append(c)
                    stack.append(c)
    return out


def process_cpu(pid: int) -> float:
    """utime + stime + cutime + cstime of one process, in seconds (0 when it is gone)."""
    text = _read(f"/proc/{pid}/stat")
    if not text:
        return 0.0
    fields = text[text.rfind(")") + 2:].split()  # the name may hold spaces and parentheses
    try:
        return sum(int(x) for x in fields[11:15]) / _TICK
    except (ValueError, IndexError):
        return 0.0


def tree_cpu(pids: list[int]) -> float:
    """CPU seconds of the processes ``pids`` (and of the children they reaped)."""
    return sum(process_cpu(p) for p in pids)


def queued_seconds(pids: list[int]) -> float:
    """The longest run-queue delay of any thread of ``pids``: how long the job was kept from
    running by others. Threads and processes start with a delay of zero (fork clears it)."""
    worst = 0
    for pid in pids:
        for tid in _tasks(pid):
            text = _read(f"/proc/{pid}/task/{tid}/schedstat")
            if text:
                try:
                    worst = max(worst, int(text.split()[1]))
                except (ValueError, IndexError):
                    continue
    return worst / 1e9
