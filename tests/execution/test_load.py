"""A verdict depends only on the program: not on the machine's load, nor on its neighbours.

The machine is made busy on purpose: 8 spinning processes per core (16 on 2 cores), real
processes, real kills. Two mechanisms are under test (docs/sandbox.md, "Limits under load"):
the wall-clock backstop does not count time a job spent waiting for a CPU, and all CPU a job's
processes spend (forked children, double-forked orphans) is charged to that job.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from quantum_codegen_eval.execution import Job, Limits, Sandbox

pytestmark = pytest.mark.slow  # about a minute of a deliberately overloaded machine

#: about 1 CPU-second of pure Python
WORK = "x = 0\nfor i in range(12_000_000):\n    x += i\nprint('done')\n"
#: forks four children that spin forever, and spins itself
FORK_SPIN = ("import os\nfor _ in range(4):\n    if os.fork() == 0:\n        while True:\n"
             "            pass\nwhile True:\n    pass\n")
#: three double-forked, session-leaving orphans spin while the job itself only sleeps (each
#: alone stays under its own RLIMIT_CPU)
ORPHAN_SPIN = ("import os, time\nfor _ in range(3):\n    if os.fork() == 0:\n        os.setsid()\n"
               "        if os.fork() == 0:\n            while True:\n                pass\n"
               "        os._exit(0)\ntime.sleep(20)\n")


class Busy:
    """``per_core`` spinning processes on every core, for the time of a ``with`` block."""

    def __init__(self, per_core: int = 8):
        self.n = per_core * (os.cpu_count() or 1)

    def __enter__(self):
        # each in its own session: with autogroup scheduling, processes of one session share
        # one slice of the CPU, and the sandbox's jobs run in sessions of their own
        self.procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"],
                                       start_new_session=True) for _ in range(self.n)]
        time.sleep(0.5)
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            p.kill()
        for p in self.procs:
            p.wait()


@pytest.fixture(scope="module")
def sb():
    with Sandbox(workers=2, preload=(), wall_time=5, memory_mb=1024) as s:
        yield s


def test_busy_machine_does_not_turn_a_job_into_tle(sb):
    """A wall-clock limit well above the job's own cost: idle and under 8x oversubscription the
    job is ok (a plain wall clock ran out under load: the job's wall time grows ~8x)."""
    limits = Limits(wall_time=4, cpu_time=30)
    idle = sb.run_job(Job(WORK, limits=limits))
    assert idle.status == "ok", idle
    with Busy():
        loaded = sb.run_job(Job(WORK, limits=limits))
    assert loaded.status == "ok", (loaded.status, loaded.wall_time, loaded.cpu_time)
    assert loaded.stdout == "done\n"
    # proof that the load was real: the job waited (wall far above its CPU time)
    assert loaded.wall_time > limits.wall_time > 1.5 * loaded.cpu_time, loaded


def test_a_sleeping_job_is_still_stopped_under_load(sb):
    """Sleeping is not waiting for a CPU: the backstop catches it, idle or busy, on time."""
    job = Job("import time\ntime.sleep(30)\n", limits=Limits(wall_time=1.5, cpu_time=10))
    with Busy():
        t = time.monotonic()
        r = sb.run_job(job)
        took = time.monotonic() - t
    assert r.status == "timeout", r
    assert took < 15, took


@pytest.mark.parametrize("source", [FORK_SPIN, ORPHAN_SPIN], ids=["children", "orphan"])
def test_cpu_of_every_process_of_a_job_is_charged_to_it(sb, source):
    """rlimits bound each process alone; the job's whole tree is bounded too: TLE, and the CPU
    reported is the tree's (not the main process's few milliseconds)."""
    r = sb.run_job(Job(source, limits=Limits(wall_time=60, cpu_time=2)))
    assert r.status == "timeout", r
    assert r.cpu_time >= 2.0, r
    assert r.wall_time < 30, r


def test_a_neighbour_cannot_move_a_verdict(sb):
    """An honest job judged beside a job that forks spinners (and beside a busy machine) keeps
    its verdict: its wall clock excludes the time the neighbour kept it waiting."""
    honest = Job(WORK, id="honest", limits=Limits(wall_time=4, cpu_time=30))
    hog = Job(FORK_SPIN, id="hog", limits=Limits(wall_time=60, cpu_time=6))
    with Busy(per_core=2):
        out = sb.run_jobs([hog, honest])
    assert [r.status for r in out] == ["timeout", "ok"], out
