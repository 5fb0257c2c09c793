"""Red-team programs against the sandbox, second round (real processes, root only).

Channels that outlive a job or reach outside it: kernel keyrings (per uid, not per process),
the evaluator's inherited session keyring, signals, stray descriptors; and output the
evaluator must survive (invalid UTF-8, NULs, escapes). Every attack also checks a control that
the sandbox must still allow, so a sandbox that runs nothing fails here too.
"""

from __future__ import annotations

import os
import textwrap

import pytest

pytestmark = pytest.mark.skipif(os.geteuid() != 0,
                                reason="a dedicated uid and private namespaces need root")

KEYS = textwrap.dedent("""\
    import ctypes, sys
    libc = ctypes.CDLL(None, use_errno=True)
    NR = {'x86_64': (248, 249, 250), 'aarch64': (217, 218, 219)}[__import__('os').uname().machine]

    def keyctl(*a):
        return libc.syscall(NR[2], *[ctypes.c_long(x) for x in a])

    def add(name, ring):
        return libc.syscall(NR[0], b'user', name, b'left-by-job-1', 13, ctypes.c_long(ring))

    def find(name):
        kid = libc.syscall(NR[1], b'user', name, None, ctypes.c_long(0))
        if kid < 0:
            return 'ENOKEY'
        buf = ctypes.create_string_buffer(64)
        n = keyctl(11, kid, ctypes.addressof(buf), 64)          # KEYCTL_READ
        return buf.raw[:max(n, 0)].decode()

    pers = keyctl(22, -1, -3)               # the uid's persistent keyring, linked: searchable
    keyctl(8, -4, -3)                       # KEYCTL_LINK the user and user-session keyrings
    keyctl(8, -5, -3)                       # into the job's session keyring
    if sys.argv[1] == 'leave':
        ids = [add(b'qce-user', -4), add(b'qce-usess', -5), add(b'qce-pers', pers)]
        print(all(i > 0 for i in ids), find(b'qce-user'), find(b'qce-pers'))  # the control
    else:
        print(find(b'qce-user'), find(b'qce-usess'), find(b'qce-pers'))
    """)


@pytest.mark.skipif(os.uname().machine not in ("x86_64", "aarch64"), reason="syscall numbers")
def test_keys_left_in_the_uids_keyrings_are_gone_for_the_next_job(light_sandbox):
    """The user, user-session and persistent keyrings belong to the uid, not to a process: a
    job could leave data there for every later job of its slot (the trusted check included)."""
    left = light_sandbox.run(KEYS, argv=["leave"])
    assert (left.status, left.stdout) == ("ok", "True left-by-job-1 left-by-job-1\n"), left.stderr
    for trusted in (False, True):
        seen = [light_sandbox.run(KEYS, argv=["look"], trusted=trusted) for _ in range(2)]
        assert [(r.status, r.stdout) for r in seen] == [("ok", "ENOKEY ENOKEY ENOKEY\n")] * 2


def test_the_session_keyring_is_the_jobs_own(light_sandbox):
    """A forked child inherits its parent's session keyring and possesses it whatever its uid:
    the job gets a fresh anonymous one instead of the evaluator's."""
    src = textwrap.dedent("""\
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        nr = {'x86_64': 250, 'aarch64': 219}[os.uname().machine]
        kid = libc.syscall(nr, ctypes.c_long(0), ctypes.c_long(-3), ctypes.c_long(0))
        buf = ctypes.create_string_buffer(256)
        libc.syscall(nr, ctypes.c_long(6), ctypes.c_long(kid), buf, ctypes.c_long(256))
        print(buf.value.decode())                                  # KEYCTL_DESCRIBE
        """)
    if os.uname().machine not in ("x86_64", "aarch64"):
        pytest.skip("syscall numbers")
    r = light_sandbox.run(src)
    assert r.status == "ok", r.stderr
    kind, uid, _gid, _perm, name = r.stdout.strip().split(";", 4)
    assert (kind, name) == ("keyring", "_ses"), r.stdout  # not the uid's _uid_ses.N
    assert int(uid) in {s.uid for s in light_sandbox._all_slots}, r.stdout


def _mounted(prefix: str) -> list[str]:
    with open("/proc/self/mountinfo") as f:
        return [line.split()[4] for line in f if line.split()[4].startswith(prefix)]


FILL = textwrap.dedent("""\
    import os
    written = 0
    try:
        for i in range(64):
            with open(f'fill{i}', 'wb') as f:
                for _ in range(16):
                    f.write(b'x' * (1 << 20))
                    written += 1
    except OSError as e:
        print(type(e).__name__, e.errno, written >= 16, written <= 64)
    """)


def test_many_files_cannot_fill_the_hosts_disk():
    """Each file is capped (RLIMIT_FSIZE) but not their number: the slot's job directories are
    a tmpfs of ``disk_mb``, so the job gets ENOSPC instead of filling the host's disk; the next
    job has the space again, and nothing stays mounted after close."""
    from quantum_codegen_eval.execution import Sandbox

    with Sandbox(workers=1, preload=(), wall_time=20, disk_mb=64) as sb:
        full = sb.run(FILL)
        after = sb.run("import os\nprint(os.listdir('.'), os.statvfs('.').f_bavail * "
                       "os.statvfs('.').f_frsize >= 60 << 20)")
        base = sb._base
        assert _mounted(base) and sb.isolation["job_dirs"] == "tmpfs of 64 MB per slot"
    assert (full.status, full.stdout) == ("ok", "OSError 28 True True\n"), full.stderr
    assert (after.status, after.stdout) == ("ok", "[] True\n"), after.stderr
    assert not _mounted(base) and not os.path.exists(base)


def test_slot_mounts_of_a_killed_evaluator_are_swept():
    """An evaluator killed with -9 never unmounts its slots' tmpfs: the next Sandbox does,
    for owners that are gone, and leaves a live one's alone."""
    import subprocess

    from quantum_codegen_eval.execution import Sandbox

    gone = subprocess.Popen(["true"])  # a pid that no longer exists
    gone.wait()
    live = Sandbox(workers=1, preload=())
    stale = Sandbox(workers=2, preload=())
    try:
        assert live.run("print(1)").stdout == "1\n"
        both = stale.run_jobs(["import time\ntime.sleep(0.5)\nprint(2)"] * 2)  # two slots
        assert [r.stdout for r in both] == ["2\n", "2\n"]
        with open(os.path.join(stale._base, "owner"), "w") as f:
            f.write(str(gone.pid))  # as if its process had died
        # two slots: the sweep used to unmount one, remove the owner file with the rest, and
        # then skip the other (no owner left): a tmpfs mounted for good
        assert len(_mounted(stale._base)) == 2
        Sandbox(workers=1, preload=()).close()
        assert not _mounted(stale._base) and not os.path.exists(stale._base)
        assert _mounted(live._base) and live.run("print(3)").stdout == "3\n"
    finally:
        stale._mounts.clear()
        stale.close()
        live.close()


def test_descriptors_signals_and_ptrace_reach_nothing_outside(light_sandbox):
    """The job holds only its stdio and report pipe; it cannot signal or trace the evaluator or
    its zygote (both in the host's pid namespace, by pid), and kill(-1) reaches only its own."""
    zygotes = [z.pid for s in light_sandbox._all_slots for z in s.zygotes.values()]
    src = textwrap.dedent(f"""\
        import ctypes, os, signal, stat
        fds = sorted(int(f) for f in os.listdir('/proc/self/fd'))
        fds = [f for f in fds if os.path.exists('/proc/self/fd/%d' % f)]  # not listdir's own
        kinds = [stat.S_ISFIFO(os.fstat(f).st_mode) or f == 0 for f in fds]
        out = []
        for pid in ({os.getpid()}, os.getppid(), *{zygotes!r}):
            for sig in (signal.SIGSTOP, signal.SIGKILL):
                try:
                    os.kill(pid, sig)
                    out.append('SIGNALLED')
                except OSError as e:
                    out.append(type(e).__name__)
        libc = ctypes.CDLL(None, use_errno=True)
        traced = libc.ptrace(16, {os.getpid()}, 0, 0)                 # PTRACE_ATTACH
        os.kill(-1, signal.SIGTERM)                                   # only its own uid
        print(fds, all(kinds), sorted(set(out)), traced, flush=True)
        """)
    r = light_sandbox.run(src)
    assert (r.status, r.stdout) == ("ok", "[0, 1, 2, 3] True ['PermissionError'] -1\n"), r.stderr


def test_a_deep_directory_tree_keeps_the_result_and_is_removed(light_sandbox, tmp_path):
    """shutil.rmtree recurses per level: 5000 nested directories made it raise, which lost the
    job's result (``crashed``) and left the tree. Symlinks in there (to host paths the job
    cannot see, but the evaluator could) are removed, not followed."""
    canary = tmp_path / "keep"
    canary.mkdir()
    (canary / "file").write_text("host data")
    src = textwrap.dedent(f"""\
        import os
        os.symlink({str(canary)!r}, 'link')
        for _ in range(5000):
            os.mkdir('d')
            os.chdir('d')
        os.symlink({str(canary)!r}, 'deep_link')
        print('made')
        """)
    r = light_sandbox.run(src)
    assert (r.status, r.stdout) == ("ok", "made\n"), r.stderr
    left = [p for s in light_sandbox._all_slots for p in os.listdir(s.dir)]
    assert left == [] and (canary / "file").read_text() == "host data"


def test_stdin_cannot_be_reopened_for_writing(light_sandbox):
    """stdin is a root-owned file in the run directory: the job reads it, and cannot write
    into it through /proc/self/fd/0 (a later reader, e.g. a resumed run, would see that)."""
    src = textwrap.dedent("""\
        import os, sys
        data = sys.stdin.read()
        try:
            with open('/proc/self/fd/0', 'w') as f:
                f.write('forged')
            wrote = 'WROTE'
        except OSError as e:
            wrote = type(e).__name__
        try:
            os.fchmod(0, 0o666)
            chmod = 'CHMOD'
        except OSError as e:
            chmod = type(e).__name__
        print(data.strip(), wrote, chmod)
        """)
    r = light_sandbox.run(src, stdin="the input\n")
    assert (r.status, r.stdout) == ("ok", "the input PermissionError PermissionError\n"), r.stderr


def test_the_evaluators_environment_is_not_in_the_jobs_memory(monkeypatch):
    """os.environ is replaced in the job, but /proc/self/environ shows the environment block
    the process was exec'd with, i.e. its zygote's: that must not be the evaluator's."""
    from quantum_codegen_eval.execution import Sandbox

    monkeypatch.setenv("QCE_TEST_API_KEY", "sk-" + "evaluator-secret")
    src = ("import os\nraw = open('/proc/self/environ', 'rb').read() + "
           "open('/proc/self/cmdline', 'rb').read()\n"
           "print(b'evaluator-secret' in raw, b'QCE_TEST_API_KEY' in raw, len(raw) > 0, "
           "'QCE_TEST_API_KEY' in os.environ)\n")
    with Sandbox(workers=1, preload=()) as sb:
        r = sb.run(src)
    with Sandbox(workers=1, preload=(), fresh=True) as sb:
        fresh = sb.run(src)
    for got in (r, fresh):
        assert (got.status, got.stdout) == ("ok", "False False True False\n"), got.stderr


@pytest.mark.slow  # several seconds of real processes: not in the fast tier
def test_abstract_unix_sockets_do_not_reach_a_concurrent_job(light_sandbox):
    """Abstract unix socket names are per network namespace; each zygote has its own, and the
    jobs of one zygote run one at a time, so a job listening there is reachable by nobody
    else (unlike a path socket, which needs a shared directory: there is none)."""
    import time

    from quantum_codegen_eval.execution import Job

    name = f"qce-redteam-{os.getpid()}"
    listener = light_sandbox.submit(Job(textwrap.dedent(f"""\
        import socket, time
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind('\\0{name}')
        s.listen(1)
        s.settimeout(4)
        try:
            s.accept()
            print('CONTACTED')
        except OSError:
            print('alone')
        """), id="listener"))
    time.sleep(1)
    dialer = light_sandbox.run(textwrap.dedent(f"""\
        import socket
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect('\\0{name}')
            print('CONNECTED')
        except OSError as e:
            print(type(e).__name__)
        """))
    assert (dialer.status, dialer.stdout) == ("ok", "ConnectionRefusedError\n"), dialer.stderr
    assert listener.result().stdout == "alone\n"
