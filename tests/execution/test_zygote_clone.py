"""Every slot's zygote is forked from the sandbox's template zygote of its key (a clone), which
runs no job: the key's imports happen once per sandbox, the frameworks' pages are shared
copy-on-write."""

from __future__ import annotations

import os
import signal
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


def template(sb: Sandbox) -> _Zygote:
    """The sandbox's template zygote (one key)."""
    (z,) = sb._templates.values()
    return z


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


def test_slot_zygotes_are_clones_of_the_template(sb):
    r = sb.run_job(linked())
    assert_ok(r)
    job_z, peer_z = zygotes(sb)
    t = template(sb)
    assert t.proc is not None  # started afresh: the one start-up of the key
    for z in (job_z, peer_z):
        assert z.proc is None and z.pid != t.pid
        assert ppid(z.pid) == t.pid  # forked from the template
        assert z.info["ready"] == z.pid
        for k in ("preloaded", "failed", "net", "filesystem", "python"):
            assert z.info[k] == t.info[k], k
    assert int(r.stderr.split()[0]) != int(r.peer.stderr.split()[0])  # each side its own uid


def test_workers_import_once():
    """Two pairs at once: four slots, four zygotes, one start-up."""
    with Sandbox(workers=2, preload=PRELOAD, wall_time=10, memory_mb=1024) as sb:
        for r in sb.run_jobs([linked(id="a"), linked(id="b")]):
            assert_ok(r)
        slot_zygotes = [z for s in sb._all_slots + sb._all_peer_slots
                        for z in s.zygotes.values()]
        assert len(sb._all_slots) == len(sb._all_peer_slots) == 2
        assert len(slot_zygotes) == 4
        t = template(sb)
        assert all(z.proc is None and ppid(z.pid) == t.pid for z in slot_zygotes)
        # each its own network namespace: no abstract socket or loopback port is shared
        nets = {os.stat(f"/proc/{z.pid}/ns/net").st_ino for z in [t, *slot_zygotes]}
        assert len(nets) == 5
        assert all(z.info["net"] == t.info["net"] == "isolated" for z in slot_zygotes)


def test_many_pairs_leave_nothing_but_clones(sb):
    for i in range(30):
        r = sb.run_job(linked(LEAVES_DAEMON, id=f"p{i}"))
        assert_ok(r)
        job_z, peer_z = zygotes(sb)
        # below the template: its clones only; below each clone: nothing
        assert sorted(_accounting.descendants(template(sb).pid)) == sorted(
            [job_z.pid, peer_z.pid]), i
        assert _accounting.descendants(job_z.pid) == [], i
        assert _accounting.descendants(peer_z.pid) == [], i
    assert daemons() == []


def test_a_zygotes_cleanup_spares_its_clones(sb):
    """Any zygote can be cloned (the worker's protocol): the cleanup after each of its jobs
    kills every child but its clones."""
    assert_ok(sb.run_job(linked()))
    job_z, _ = zygotes(sb)
    clone = _Zygote.clone(job_z)
    try:
        assert ppid(clone.pid) == job_z.pid
        for i in range(5):  # jobs of the parent: its cleanup after each kills all its children
            r = sb.run_job(Job(LEAVES_DAEMON.replace('assert sys.stdin.readline() == "hello\\n"',
                                                     ""), id=f"solo{i}"))
            assert r.status == "ok", (r.status, r.stderr)
            assert running(clone.pid)
        assert daemons() == []
        assert zygotes(sb)[0].pid == job_z.pid
    finally:
        clone.close()


def test_close_leaves_no_zygote():
    sb = Sandbox(workers=2, preload=PRELOAD, wall_time=10, memory_mb=1024)
    try:
        assert_ok(sb.run_jobs([linked(id="a"), linked(id="b")])[0])
        pids = [z.pid for s in sb._all_slots + sb._all_peer_slots for z in s.zygotes.values()]
        clones = [p for p in pids if ppid(p) == template(sb).pid]
        pids.append(template(sb).pid)
        assert clones and all(running(p) for p in pids)
    finally:
        sb.close()
    assert [p for p in pids if running(p)] == []
    assert [p for p in pids if os.path.exists(f"/proc/{p}")] == []  # reaped, not even zombies


def _kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    for _ in range(200):
        if not running(pid):
            return
        time.sleep(0.01)


def test_dead_clone_is_replaced(sb):
    assert_ok(sb.run_job(linked()))
    _, peer_z = zygotes(sb)
    old = peer_z.pid
    _kill(old)
    assert_ok(sb.run_job(linked()))
    _, peer_z = zygotes(sb)
    assert peer_z.pid != old and running(peer_z.pid)
    assert ppid(peer_z.pid) == template(sb).pid  # cloned again
    assert_ok(sb.run_job(linked()))


def test_dead_template_is_started_anew(sb):
    assert_ok(sb.run_job(linked()))
    old = template(sb).pid
    _kill(old)
    assert_ok(sb.run_job(linked()))  # the slots' zygotes serve on without it
    _, peer_z = zygotes(sb)
    _kill(peer_z.pid)
    assert_ok(sb.run_job(linked()))  # the peer slot needs a clone: the template starts anew
    assert template(sb).pid != old and running(template(sb).pid)
    assert ppid(zygotes(sb)[1].pid) == template(sb).pid


def test_clone_is_far_cheaper_than_a_fresh_start():
    with Sandbox(workers=1, preload=("numpy", "qiskit"), wall_time=10, memory_mb=2048) as sb:
        slot, peer_slot = sb._acquire(), sb._acquire(peer=True)
        try:
            job = Job("pass")
            t0 = time.perf_counter()
            slot.warm(job)  # the template starts, then the slot's clone
            fresh = time.perf_counter() - t0
            t0 = time.perf_counter()
            peer_slot.warm(job)
            cloned = time.perf_counter() - t0
            (job_z,), (peer_z,) = slot.zygotes.values(), peer_slot.zygotes.values()
            assert ppid(peer_z.pid) == ppid(job_z.pid) == template(sb).pid
            assert cloned * 5 < fresh, (cloned, fresh)
        finally:
            sb._slots.put(slot)
            sb._peer_slots.put(peer_slot)


def test_fresh_mode_unchanged():
    with Sandbox(workers=1, preload=PRELOAD, fresh=True, wall_time=10, memory_mb=1024) as sb:
        assert_ok(sb.run_job(linked()))
        assert all(not s.zygotes for s in sb._all_slots + sb._all_peer_slots)
        assert not sb._templates


def test_each_key_its_template(sb):
    job = Job(SIDE, id="k", peer=Job(SIDE, id="k-peer", preload=("json", "csv")))
    assert_ok(sb.run_job(job))
    job_z, peer_z = zygotes(sb)
    assert len(sb._templates) == 2  # the same python: only the preload differs
    by_key = {key[1]: z for key, z in sb._templates.items()}
    assert ppid(job_z.pid) == by_key[("json",)].pid
    assert ppid(peer_z.pid) == by_key[("json", "csv")].pid


def test_no_clone_outlives_its_template():
    """Over 3 keys, only templates none of whose clones serves are closed."""
    keys = [("json",), ("csv",), ("zlib",), ("struct",), ("base64",)]
    with Sandbox(workers=1, preload=(), wall_time=10, memory_mb=1024) as sb:
        for preload in keys:
            r = sb.run_job(Job("pass", preload=preload))
            assert r.status == "ok", r.stderr
            (slot,) = sb._all_slots
            templates = {z.pid for z in sb._templates.values()}
            assert all(running(p) for p in templates)
            assert all(ppid(z.pid) in templates for z in slot.zygotes.values())
        assert len(slot.zygotes) == len(sb._templates) == 3  # the last three keys


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
    """The job's CPU accounting (the tree below its zygote) holds none of the peer's."""
    from quantum_codegen_eval.execution import Limits

    wait = "import sys\nsys.stdin.read()\n"
    burn = ("import time\nt = time.process_time()\nwhile time.process_time() - t < 2.5:\n"
            "    pass\n")
    assert_ok(sb.run_job(linked()))
    r = sb.run_job(Job(wait, id="w", limits=Limits(wall_time=10, cpu_time=1),
                       peer=Job(burn, id="w-peer", limits=Limits(wall_time=10, cpu_time=6))))
    assert_ok(r)
