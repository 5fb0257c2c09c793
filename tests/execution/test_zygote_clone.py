"""A peer slot's zygote is forked from the job slot's idle zygote of the same key (a clone),
not started afresh: no second start-up, the frameworks' pages shared copy-on-write."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from quantum_codegen_eval.execution import Job, Sandbox, _accounting
from quantum_codegen_eval.execution.sandbox import _Zygote

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="linked jobs need a uid per slot")

PRELOAD = ("json",)
# each side writes its uid to stderr, says hello to the other and reads the other's hello
SIDE = """
import os, sys
print(os.getuid(), file=sys.stderr)
print("hello", flush=True)
assert sys.stdin.readline() == "hello\\n"
"""
# ... and leaves a daemon behind (setsid + fork): the zygote's cleanup must kill it
DAEMON_SLEEP = "100.4242"
LEAVES_DAEMON = SIDE + f"""
pid = os.fork()
if pid == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", "{DAEMON_SLEEP}"])
    os._exit(0)
os.waitpid(pid, 0)
"""


def linked(source: str = SIDE, id: str = "j") -> Job:
    return Job(source, id=id, peer=Job(source, id=f"{id}-peer"))


def assert_ok(r) -> None:
    assert r.status == "ok", (r.status, r.stderr)
    assert r.peer is not None and r.peer.status == "ok", (r.peer.status, r.peer.stderr)


def ppid(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read()
    return int(stat[stat.rfind(")") + 2:].split()[1])  # field 4


def running(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:].split()[0] not in ("Z", "X")


def zygotes(sb: Sandbox) -> tuple[_Zygote, _Zygote]:
    """The job slot's zygote and the peer slot's one (a sandbox of one worker, one key)."""
    (job_z,) = sb._all_slots[0].zygotes.values()
    (peer_z,) = sb._all_peer_slots[0].zygotes.values()
    return job_z, peer_z


def daemons() -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as f:
                    if DAEMON_SLEEP.encode() in f.read() and running(int(name)):
                        found.append(int(name))
            except OSError:
                pass
    return found


@pytest.fixture
def sb():
    with Sandbox(workers=1, preload=PRELOAD, wall_time=10, memory_mb=1024) as sb:
        yield sb


def test_peer_zygote_is_a_clone(sb):
    r = sb.run_job(linked())
    assert_ok(r)
    job_z, peer_z = zygotes(sb)
    assert peer_z.proc is None and peer_z.pid != job_z.pid
    assert ppid(peer_z.pid) == job_z.pid  # forked from the job slot's zygote
    assert peer_z.info["ready"] == peer_z.pid
    for k in ("preloaded", "failed", "net", "filesystem", "python"):
        assert peer_z.info[k] == job_z.info[k], k
    assert int(r.stderr.split()[0]) != int(r.peer.stderr.split()[0])  # each side its own uid


def test_many_pairs_leave_nothing_but_clones(sb):
    for i in range(30):
        r = sb.run_job(linked(LEAVES_DAEMON, id=f"p{i}"))
        assert_ok(r)
        job_z, peer_z = zygotes(sb)
        # below the job slot's zygote: its clone only; below the clone: nothing
        assert _accounting.descendants(job_z.pid) == [peer_z.pid], i
        assert _accounting.descendants(peer_z.pid) == [], i
    assert daemons() == []


def test_parent_cleanup_spares_the_clone(sb):
    assert_ok(sb.run_job(linked()))
    job_z, peer_z = zygotes(sb)
    clone = peer_z.pid
    assert ppid(clone) == job_z.pid
    for i in range(5):  # jobs of the parent: its cleanup after each kills all its children
        r = sb.run_job(Job(LEAVES_DAEMON.replace('assert sys.stdin.readline() == "hello\\n"', ""),
                           id=f"solo{i}"))
        assert r.status == "ok", (r.status, r.stderr)
        assert running(clone)
    assert daemons() == []
    assert_ok(sb.run_job(linked()))
    assert zygotes(sb)[1].pid == clone and running(clone)  # the same clone, no fresh start
    assert zygotes(sb)[0].pid == job_z.pid


def test_close_leaves_no_zygote():
    sb = Sandbox(workers=2, preload=PRELOAD, wall_time=10, memory_mb=1024)
    try:
        assert_ok(sb.run_jobs([linked(id="a"), linked(id="b")])[0])
        pids = [z.pid for s in sb._all_slots + sb._all_peer_slots for z in s.zygotes.values()]
        clones = [z.pid for s in sb._all_peer_slots for z in s.zygotes.values()
                  if z.proc is None]
        assert clones and all(running(p) for p in pids)
    finally:
        sb.close()
    assert [p for p in pids if running(p)] == []
    assert [p for p in pids if os.path.exists(f"/proc/{p}")] == []  # reaped, not even zombies


def test_dead_clone_is_replaced(sb):
    assert_ok(sb.run_job(linked()))
    _, peer_z = zygotes(sb)
    old = peer_z.pid
    os.kill(old, signal.SIGKILL)
    for _ in range(200):
        if not running(old):
            break
        time.sleep(0.01)
    assert_ok(sb.run_job(linked()))
    job_z, peer_z = zygotes(sb)
    assert peer_z.pid != old and running(peer_z.pid)
    assert ppid(peer_z.pid) == job_z.pid  # cloned again
    assert_ok(sb.run_job(linked()))


def test_clone_is_far_cheaper_than_a_fresh_start():
    with Sandbox(workers=1, preload=("numpy", "qiskit"), wall_time=10, memory_mb=2048) as sb:
        slot, peer_slot = sb._acquire(), sb._acquire(peer=True)
        try:
            job = Job("pass")
            t0 = time.perf_counter()
            slot.warm(job)  # afresh: nothing to clone from
            fresh = time.perf_counter() - t0
            t0 = time.perf_counter()
            peer_slot.warm(job, slot)
            cloned = time.perf_counter() - t0
            (job_z,), (peer_z,) = slot.zygotes.values(), peer_slot.zygotes.values()
            assert ppid(peer_z.pid) == job_z.pid
            assert cloned * 5 < fresh, (cloned, fresh)
        finally:
            sb._slots.put(slot)
            sb._peer_slots.put(peer_slot)


def test_fresh_mode_unchanged():
    with Sandbox(workers=1, preload=PRELOAD, fresh=True, wall_time=10, memory_mb=1024) as sb:
        assert_ok(sb.run_job(linked()))
        assert all(not s.zygotes for s in sb._all_slots + sb._all_peer_slots)


def test_different_keys_start_afresh(sb):
    job = Job(SIDE, id="k", peer=Job(SIDE, id="k-peer", preload=("json", "csv")))
    assert_ok(sb.run_job(job))
    (job_z,) = sb._all_slots[0].zygotes.values()
    (peer_z,) = sb._all_peer_slots[0].zygotes.values()
    assert peer_z.proc is not None and ppid(peer_z.pid) != job_z.pid
    assert sys.executable  # the same python: only the preload differs


# the side's orphan (setsid + double fork) passes to the nearest subreaper: its zygote's
ORPHAN_PARENT = SIDE + """
import time
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.setsid()
    parent = os.getpid()  # (``pid`` is 0 here)
    if os.fork() == 0:
        while os.getppid() == parent:  # until its parent has exited
            time.sleep(0.001)
        os.write(w, str(os.getppid()).encode())
        os._exit(0)
    os._exit(0)
os.waitpid(pid, 0)
os.close(w)
print("orphan-parent", os.read(r, 100).decode(), file=sys.stderr)
"""


def test_clone_is_a_subreaper(sb):
    r = sb.run_job(Job(SIDE, id="o", peer=Job(ORPHAN_PARENT, id="o-peer")))
    assert_ok(r)
    _, peer_z = zygotes(sb)
    assert f"orphan-parent {peer_z.pid}" in r.peer.stderr, r.peer.stderr


def test_peer_cpu_is_not_the_jobs(sb):
    """The clone (and so the peer's processes) is below the job slot's zygote: the job's CPU
    accounting (the tree below its zygote) must leave that subtree out."""
    from quantum_codegen_eval.execution import Limits

    wait = "import sys\nsys.stdin.read()\n"
    burn = ("import time\nt = time.process_time()\nwhile time.process_time() - t < 2.5:\n"
            "    pass\n")
    assert_ok(sb.run_job(linked()))  # the peer slot's zygote is a clone from here on
    r = sb.run_job(Job(wait, id="w", limits=Limits(wall_time=10, cpu_time=1),
                       peer=Job(burn, id="w-peer", limits=Limits(wall_time=10, cpu_time=6))))
    assert ppid(zygotes(sb)[1].pid) == zygotes(sb)[0].pid
    assert_ok(r)
