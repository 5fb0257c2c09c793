"""Linked jobs: a job and its peer run at once, each one's stdout the other's stdin."""

from __future__ import annotations

import os
import pickle
import threading
import time

import pytest

from quantum_codegen_eval.execution import ExceptionInfo, Job, Limits, RunResult, Sandbox

ROOT = os.geteuid() == 0
N = 50

# the job asks N questions and checks each answer; the peer answers every line it reads
ASK = f"""
import sys
for i in range({N}):
    print(i, flush=True)
    answer = sys.stdin.readline()
    assert answer == f"{{i * i}}\\n", (i, answer)
open("out.txt", "w").write("checked {N}")
"""
ANSWER = """
import sys
for line in sys.stdin:
    n = int(line)
    print(n * n, flush=True)
"""
# the job says hello, then reads its stdin to the end and writes down what it got
UNTIL_EOF = """
import sys
print("hello", flush=True)
rest = sys.stdin.read()
open("seen.txt", "w").write("EOF after " + repr(rest))
"""


def ping_pong(id: str = "ping") -> Job:
    return Job(ASK, id=id, collect=("out.txt",), peer=Job(ANSWER, id=f"{id}-peer"))


def assert_ping_pong(r: RunResult, id: str = "ping") -> None:
    assert r.id == id and r.status == "ok", (r.status, r.stderr)
    assert r.peer is not None and r.peer.id == f"{id}-peer"
    assert r.peer.status == "ok", (r.peer.status, r.peer.stderr)
    assert r.files == {"out.txt": f"checked {N}".encode()}
    assert r.stdout == "" and r.peer.stdout == ""  # the host never reads the link


def test_ping_pong(light_sandbox):
    assert_ping_pong(light_sandbox.run_job(ping_pong()))


def test_stderr_and_files_per_side(light_sandbox):
    job = Job("import sys\nprint('to peer', flush=True)\nprint('job err', file=sys.stderr)",
              id="j", peer=Job("import sys\nopen('p.txt', 'w').write(sys.stdin.read())\n"
                               "raise ValueError('peer failed')", id="p", collect=("p.txt",)))
    r = light_sandbox.run_job(job)
    assert r.status == "ok" and r.stderr == "job err\n" and r.files == {}
    assert r.peer.status == "error" and r.peer.exception.type == "ValueError"
    assert r.peer.files == {"p.txt": b"to peer\n"} and "peer failed" in r.peer.stderr


def test_workers_1_no_deadlock():
    """One normal slot, busy with a linked job, while more wait: the peers have slots of
    their own, so nothing waits on itself."""
    sb = Sandbox(workers=1, preload=(), wall_time=10, memory_mb=1024)
    results: dict[str, RunResult] = {}
    jobs = [ping_pong("a"), Job("print('plain')", id="plain"), ping_pong("b")]
    threads = [threading.Thread(target=lambda j=j: results.update({j.id: sb.run_job(j)}),
                                daemon=True) for j in jobs]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 120
    for t in threads:
        t.join(timeout=max(0.0, deadline - time.monotonic()))
    assert not any(t.is_alive() for t in threads), "deadlock: a linked job never finished"
    sb.close()
    assert_ping_pong(results["a"], "a")
    assert_ping_pong(results["b"], "b")
    assert results["plain"].stdout == "plain\n"
    assert len(sb._all_slots) == 1 and len(sb._all_peer_slots) == 1


def test_peer_timeout_gives_the_job_eof(light_sandbox):
    job = Job(UNTIL_EOF, id="j", collect=("seen.txt",), limits=Limits(wall_time=10),
              peer=Job("while True:\n    pass", id="p", limits=Limits(wall_time=10, cpu_time=1)))
    r = light_sandbox.run_job(job)
    assert r.peer.status == "timeout" and r.peer.cpu_time < 5
    assert r.status == "ok", (r.status, r.stderr)
    assert r.files == {"seen.txt": b"EOF after ''"}


def test_a_job_waiting_for_its_peer_is_not_late(light_sandbox):
    """The job's wall clock waits while its peer runs (a loaded machine can keep the peer
    long), then runs again from the peer's end: 1 s of wall for the job, a peer that answers
    after 3 s, then the job hangs and is stopped about 1 s after the peer ended."""
    job = Job(UNTIL_EOF.replace('open("seen.txt"', 'open("seen.txt", "w").close()\n'
                                'import time\ntime.sleep(100)\nopen("never.txt"')
              .replace(', "w").write("EOF after " + repr(rest))', ', "w")'),
              id="j", collect=("seen.txt",), limits=Limits(wall_time=1),
              peer=Job("import sys, time\nsys.stdin.readline()\ntime.sleep(3)", id="p",
                       limits=Limits(wall_time=20)))
    t0 = time.monotonic()
    r = light_sandbox.run_job(job)
    assert r.peer.status == "ok", (r.peer.status, r.peer.stderr)
    assert r.files == {"seen.txt": b""}, (r.status, r.stderr)  # it got past the peer's 3 s
    assert r.status == "timeout" and 3.5 < time.monotonic() - t0 < 10, r


def test_peer_dies_mid_conversation(light_sandbox):
    # the peer may be gone before the job's second line: that write may meet a broken pipe
    job = Job("import os, sys\nprint(1, flush=True)\nfirst = sys.stdin.readline()\n"
              "try:\n    os.write(1, b'2\\n')\nexcept BrokenPipeError:\n    pass\n"
              "rest = sys.stdin.read()\nopen('seen.txt', 'w').write(repr((first, rest)))",
              id="j", collect=("seen.txt",),
              peer=Job("import os, sys\nsys.stdin.readline()\nprint('one', flush=True)\n"
                       "os._exit(3)", id="p"))
    r = light_sandbox.run_job(job)
    assert r.peer.exit_code == 3 and r.peer.status == "error"
    assert r.status == "ok", (r.status, r.stderr)
    assert r.files == {"seen.txt": b"('one\\n', '')"}


def test_job_ending_first_gives_the_peer_eof(light_sandbox):
    # the peer writes nothing: the job may be gone before any write of it (a broken pipe)
    job = Job("print('bye', flush=True)", id="j",
              peer=Job(UNTIL_EOF.replace('print("hello", flush=True)\n', ""), id="p",
                       collect=("seen.txt",)))
    r = light_sandbox.run_job(job)
    assert r.status == "ok" and r.peer.status == "ok", (r.stderr, r.peer.stderr)
    assert r.peer.files == {"seen.txt": b"EOF after 'bye\\n'"}


@pytest.mark.skipif(not ROOT, reason="a uid per slot needs root")
def test_peer_cannot_touch_the_job(light_sandbox):
    job = Job("import os, sys\nprint(os.getpid(), flush=True)\n"
              "open('uid.txt', 'w').write(str(os.getuid()))\n"
              "open('reply.txt', 'w').write(sys.stdin.read())",
              id="j", collect=("uid.txt", "reply.txt"),
              peer=Job(PEER_ATTACK, id="p", collect=("uid.txt", "attack.txt")))
    r = light_sandbox.run_job(job)
    assert r.status == "ok" and r.signal is None, (r.status, r.stderr)
    assert r.peer.status == "ok", r.peer.stderr
    assert r.peer.files["attack.txt"] == b"kill: PermissionError\nenviron: denied\n"
    assert r.files["reply.txt"] == b"still there?\n"  # the job lived to read it
    job_uid, peer_uid = int(r.files["uid.txt"]), int(r.peer.files["uid.txt"])
    assert job_uid != peer_uid and 0 not in (job_uid, peer_uid)


PEER_ATTACK = """
import os, signal, sys
pid = int(sys.stdin.readline())
open("uid.txt", "w").write(str(os.getuid()))
with open("attack.txt", "w") as out:
    try:
        os.kill(pid, signal.SIGKILL)
        out.write("kill: sent\\n")
    except OSError as e:
        out.write(f"kill: {type(e).__name__}\\n")
    try:
        open(f"/proc/{pid}/environ", "rb").read()
        out.write("environ: read\\n")
    except OSError:
        out.write("environ: denied\\n")
print("still there?", flush=True)
"""


@pytest.mark.skipif(not ROOT, reason="a uid per slot needs root")
def test_shared_uid_is_refused():
    with Sandbox(workers=1, preload=(), user=None) as sb:
        with pytest.raises(ValueError, match="uid per slot"):
            sb.run_job(ping_pong())


def test_fresh_interpreters():
    with Sandbox(workers=1, preload=(), fresh=True, wall_time=10, memory_mb=1024) as sb:
        assert_ping_pong(sb.run_job(ping_pong()))


def test_submit_and_map(light_sandbox):
    assert_ping_pong(light_sandbox.submit(ping_pong()).result(timeout=120))
    results = {r.id: r for r in light_sandbox.map([ping_pong("m1"), ping_pong("m2")])}
    assert_ping_pong(results["m1"], "m1")
    assert_ping_pong(results["m2"], "m2")


@pytest.mark.slow
def test_dask_local_cluster_runs_a_linked_job():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = Sandbox(executor=client.get_executor(), preload=(), wall_time=10)
        r = remote.submit(ping_pong()).result(timeout=300)
        remote.close()
    assert_ping_pong(r)


def test_result_with_peer_round_trips():
    peer = RunResult(id="p", status="error", exit_code=3, stderr="e", files={"a": b"\x00\xff"},
                     exception=ExceptionInfo("ValueError", "m", "tb"))
    r = RunResult(id="j", status="ok", exit_code=0, files={"b": b"x"}, peer=peer)
    d = r.to_dict()
    assert d["peer"]["files"] == {"a": "AP8="} and d["peer"]["peer"] is None
    assert RunResult.from_dict(d) == r and RunResult.from_dict(d).peer == peer
    assert pickle.loads(pickle.dumps(r)) == r
    assert RunResult.from_dict(RunResult(id="x", status="ok").to_dict()).peer is None


def test_job_validation():
    assert pickle.loads(pickle.dumps(ping_pong())) == ping_pong()
    with pytest.raises(ValueError, match="'j'.*must be a Job"):
        Job("", id="j", peer="print(1)")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'j'.*must not have a peer"):
        Job("", id="j", peer=Job("", id="p", peer=Job("", id="q")))
    with pytest.raises(ValueError, match="'j'.*'p' must not set stdin"):
        Job("", id="j", peer=Job("", id="p", stdin="x"))
    with pytest.raises(ValueError, match="'j'.*'j' must not set stdin"):
        Job("", id="j", stdin="x", peer=Job("", id="p"))
