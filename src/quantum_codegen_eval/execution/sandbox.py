"""The sandbox: runs untrusted programs in isolated processes and always returns a result.

>>> with Sandbox(workers=1, preload=(), wall_time=5) as sb:
...     r = sb.run("print(6 * 7)")
>>> r.status, r.stdout
('ok', '42\\n')
"""

from __future__ import annotations

import json
import os
import queue
import select
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor, as_completed
from dataclasses import replace
from pathlib import Path
from typing import Any

from . import _accounting, _worker
from ._users import UidLease, lease_uid
from .types import (
    ExceptionInfo,
    ExecutorError,
    InterpreterMissing,
    Job,
    Limits,
    PackageMissing,
    RunResult,
)

WORKER = str(Path(__file__).with_name("_worker.py"))
DEFAULT_PRELOAD: tuple[str, ...] = ()  # judges name what their jobs preload
# This package's own files (judges, references, specs) are hidden from untrusted jobs.
_PACKAGE = __name__.split(".")[0]
_PACKAGE_DIR = str(Path(__file__).resolve().parents[1])
_DRAIN_GRACE = 0.5
#: how often a running job's whole-tree CPU is read (seconds)
_POLL = 0.25
#: the wall-clock backstop never stretches past this many times its own length, however long
#: the job was kept waiting for a CPU
_MAX_STRETCH = 50.0
_THREAD_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
               "NUMEXPR_NUM_THREADS", "RAYON_NUM_THREADS")


def _base_env(home: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
        "MPLBACKEND": "Agg",
    }
    env.update({k: "1" for k in _THREAD_ENV})
    env.update(extra or {})
    return env


def _launch_env(env: dict[str, str], hash_seed: int) -> dict[str, str]:
    """The environment a worker interpreter starts with. It starts without ``-I`` (which
    would ignore ``PYTHONHASHSEED`` and leave every worker its own random ``str`` hash, so set
    order, and with it a program's output, would differ between workers and runs); no other
    ``PYTHON*`` variable reaches it, so it is configured as ``-I`` would leave it."""
    clean = {k: v for k, v in env.items() if not k.startswith("PYTHON")}
    clean["PYTHONHASHSEED"] = str(hash_seed)
    return clean


def _interpreter_argv(python: str, *args: str) -> list[str]:
    """``python -s -X utf8 _worker.py ...``: no user site-packages; the worker drops its own
    directory from ``sys.path`` first thing (what ``-I`` did)."""
    return [python, "-s", "-X", "utf8", WORKER, *args]


class _Zygote:
    """One pre-imported worker process serving jobs one at a time over a socket pair."""

    def __init__(self, python: str, preload: tuple[str, ...], unshare_net: bool, home: str,
                 env: dict[str, str], fs: dict[str, Any], hash_seed: int = 0):
        self.python, self.preload = python, preload
        ours, theirs = socket.socketpair()
        self.sock = ours
        self.log = tempfile.TemporaryFile()
        config = json.dumps({"preload": list(preload), "unshare_net": unshare_net, **fs})
        self.proc = subprocess.Popen(
            _interpreter_argv(python, "zygote", str(theirs.fileno()), config),
            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=self.log, env=_launch_env(_base_env(home, env), hash_seed),
            start_new_session=True, cwd=home,
        )
        theirs.close()
        ours.settimeout(300)
        try:
            self.info, _ = _worker.recv_msg(ours)
        except (EOFError, OSError) as e:
            self.close()
            self.log.seek(0)
            err = self.log.read().decode(errors="replace")[-2000:]
            raise RuntimeError(f"sandbox worker for {python} failed to start: {e}\n{err}") from e
        ours.settimeout(None)
        self.pid = self.proc.pid
        self.pidfd: int | None = None  # a clone's (it has no Popen: another zygote is its parent)
        self.clones: list[_Zygote] = []  # the zygotes cloned from this one
        self.preludes: set[str] = set()  # the ``Job.prelude`` texts it ran

    @classmethod
    def clone(cls, source: _Zygote) -> _Zygote:
        """A zygote forked from ``source`` (idle: none of its jobs runs), serving on a socket pair
        of its own: the same preloads, preludes, filesystem plan and network namespace,
        sharing ``source``'s pages copy-on-write, with no start-up of its own. It is
        ``source``'s child (``source`` reaps it), in a session of its own."""
        z = cls.__new__(cls)
        z.python, z.preload = source.python, source.preload
        z.proc, z.log, z.pidfd, z.clones = None, None, None, []
        ours, theirs = socket.socketpair()
        z.sock, z.pid = ours, 0
        try:
            try:
                source.sock.settimeout(30)
                _worker.send_msg(source.sock, {"clone": True}, fds=[theirs.fileno()])
                reply, _ = _worker.recv_msg(source.sock)
            finally:
                theirs.close()
                if source.sock.fileno() >= 0:
                    source.sock.settimeout(None)
            if not isinstance(reply.get("cloned"), int):
                raise RuntimeError(f"zygote {source.pid} did not clone: {reply.get('error')}")
            z.pid = reply["cloned"]
            z.pidfd = os.pidfd_open(z.pid)
            ours.settimeout(30)
            z.info, _ = _worker.recv_msg(ours)
            ours.settimeout(None)
            if z.info.get("ready") != z.pid:
                raise RuntimeError(f"zygote clone {z.pid} said {z.info!r}")
        except BaseException:
            z.close()
            raise
        z.preludes = set(source.preludes)  # what they left is in its copy of the pages
        source.clones = [c for c in source.clones if c.alive] + [z]
        return z

    @property
    def alive(self) -> bool:
        if self.proc is not None:
            return self.proc.poll() is None
        if self.pidfd is None:
            return False
        return not select.select([self.pidfd], [], [], 0)[0]  # readable once it has exited

    def close(self) -> None:
        if self.proc is None:  # a clone: its parent zygote reaps it, never this process
            try:
                self.sock.close()
            finally:
                if self.pidfd is not None:
                    if self.alive:
                        try:
                            os.killpg(self.pid, signal.SIGKILL)  # setsid: its group is its pid
                        except OSError:
                            pass
                        try:
                            signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
                        except OSError:
                            pass
                    os.close(self.pidfd)
                    self.pidfd = None
            return
        try:
            self.sock.close()
        finally:
            if self.clones:
                try:  # at EOF it reaps its clones closed before it, then exits by itself
                    self.proc.wait(timeout=0.5)
                except subprocess.TimeoutExpired:
                    pass
            if self.proc.poll() is None:
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except OSError:
                    pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass


class _Slot:
    """A worker slot: its own uid (as root) and its zygotes, one job at a time."""

    def __init__(self, sb: Sandbox, lease: UidLease | None):
        self.sb, self.lease = sb, lease
        self.zygotes: dict[tuple[str, tuple[str, ...], int], _Zygote] = {}
        self.running: int | None = None  # pid of the job being supervised
        #: a linked job's peer still running: the job's wall clock waits for it (``_run_pair``)
        self.waiting_for: Future[RunResult] | None = None
        self.dir = sb._slot_dir()  # the slot's job directories live in here

    @property
    def uid(self) -> int | None:
        return None if self.lease is None else self.lease.uid

    def zygote(self, python: str, preload: tuple[str, ...], hash_seed: int = 0) -> _Zygote:
        """This slot's zygote for the key, made if it has none (alive): a clone of the
        sandbox's template zygote of the key (:meth:`Sandbox._clone_template`)."""
        key = (python, preload, hash_seed)
        z = self.zygotes.get(key)
        if z is not None and not z.alive:
            self.zygotes.pop(key)
            z.close()
            z = None
        if z is None:
            if len(self.zygotes) >= 3:  # bound memory: keep a few interpreters per slot
                old_key = next(iter(self.zygotes))
                self.zygotes.pop(old_key).close()
            if self.lease is not None and self.lease.exclusive:
                _kill_uid(self.lease.uid)  # whatever a dead predecessor left running
            z = self.sb._clone_template(key)
            self.zygotes[key] = z
        return z

    def close(self) -> None:
        for z in self.zygotes.values():
            z.close()
        self.zygotes.clear()
        if self.lease is not None:
            self.lease.release()

    # ------------------------------------------------------------------ one job

    def run(self, job: Job, link: list[int] | None = None) -> RunResult:
        """Run ``job``. ``link``: the [stdin, stdout] fds of a linked side, used instead of
        the stdin file and the stdout pipe; this slot owns them and closes them (emptying the
        list) as soon as the job has them, or on failure: the other side's EOF needs that."""
        link = [] if link is None else link
        try:
            limits = job.limits or self.sb.limits
            python, preload = self._interpreter(job)
            if self.sb.fresh and preload and (python, preload) not in self.sb._probed:
                self.sb._start_zygote((python, preload, 0)).close()  # see that they import
                self.sb._probed.add((python, preload))
            rundir = tempfile.mkdtemp(prefix="run-", dir=self.dir)
            try:
                return self._run_in(job, limits, python, preload, rundir, link)
            finally:
                _remove_tree(rundir)
        finally:
            _close_fds(link)

    def _interpreter(self, job: Job) -> tuple[str, tuple[str, ...]]:
        sb = self.sb
        return job.python or sb.python, tuple(sb.preload if job.preload is None else job.preload)

    def _seed(self, job: Job) -> int:
        return self.sb.hash_seed if job.hash_seed is None else job.hash_seed

    def warm(self, job: Job) -> None:
        """Start the zygote ``job`` will fork from (no-op with ``fresh``), so that a linked
        side does not wait on the other's start-up with its wall clock running."""
        if not self.sb.fresh:
            self.zygote(*self._interpreter(job), self._seed(job))

    def _prepare(self, job: Job, rundir: str) -> tuple[str, str]:
        os.chmod(rundir, 0o711)
        work = os.path.join(rundir, "work")
        os.mkdir(work, 0o700)
        for name, content in job.files.items():
            path = os.path.join(work, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            data = content.encode() if isinstance(content, str) else content
            with open(path, "wb") as f:
                f.write(data)
        if self.uid is not None:
            for root, dirs, files in os.walk(work):
                for n in [*dirs, *files]:
                    os.lchown(os.path.join(root, n), self.uid, self.uid)
            os.chown(work, self.uid, self.uid)
        script = os.path.join(rundir, "main.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(job.source)
        os.chmod(script, 0o644)
        return work, script

    @staticmethod
    def _stdin(job: Job, rundir: str) -> int:
        if job.stdin is None:
            return os.open(os.devnull, os.O_RDONLY)
        path = os.path.join(rundir, "stdin")
        data = job.stdin.encode() if isinstance(job.stdin, str) else job.stdin
        with open(path, "wb") as f:
            f.write(data)
        return os.open(path, os.O_RDONLY)

    def _spec(self, job: Job, limits: Limits, work: str, script: str) -> dict:
        env = _base_env(work, self.sb.env)
        env.update(job.env)
        seed = self._seed(job)
        env["PYTHONHASHSEED"] = str(seed)  # what the program's own interpreters inherit
        return {
            "seed": seed,
            "script": script, "workdir": work, "argv": list(job.argv), "env": env,
            "limits": limits.to_worker(), "uid": self.uid, "gid": self.uid,
            "sweep_uid": self.lease is not None and self.lease.exclusive,
            "pdeathsig": True, "trusted": bool(job.trusted), **self.sb._fs_config(),
        }

    def _run_in(self, job: Job, limits: Limits, python: str, preload: tuple[str, ...],
                rundir: str, link: list[int]) -> RunResult:
        work, script = self._prepare(job, rundir)
        spec = self._spec(job, limits, work, script)
        if link:  # the host never reads the link: its stdout reader is at EOF from the start
            (stdin_fd, out_w), out_r = link, _eof_reader()
        else:
            stdin_fd = self._stdin(job, rundir)
            out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        rep_r, rep_w = os.pipe()
        zygote = None
        t0 = time.monotonic()
        try:
            if self.sb.fresh:
                spec["unshare_net"] = not self.sb.network
                spec["report_fd"] = rep_w
                spec_path = os.path.join(rundir, "spec.json")
                with open(spec_path, "w") as f:
                    json.dump(spec, f)
                proc = subprocess.Popen(
                    _interpreter_argv(python, "single", spec_path),
                    stdin=stdin_fd, stdout=out_w, stderr=err_w, pass_fds=(rep_w,),
                    start_new_session=True, env=_launch_env(spec["env"], spec["seed"]), cwd=work,
                )
                pid, waiter = proc.pid, os.pidfd_open(proc.pid)
            else:
                zygote = self._send(python, preload, spec["seed"], spec,
                                    [stdin_fd, out_w, err_w, rep_w], job.prelude)
                t0 = time.monotonic()
        except BaseException:
            for fd in (out_r, err_r, rep_r):
                os.close(fd)
            raise
        finally:
            link.clear()  # closed just below (never twice: the fd may be another's by then)
            for fd in (stdin_fd, out_w, err_w, rep_w):
                os.close(fd)
        if zygote is not None:
            try:
                zygote.sock.settimeout(60)
                msg, _ = _worker.recv_msg(zygote.sock)
                zygote.sock.settimeout(None)
                pid, waiter = msg["started"], zygote.sock.fileno()
            except (EOFError, OSError, KeyError):
                zygote.close()
                for fd in (out_r, err_r, rep_r):
                    os.close(fd)
                return RunResult(id=job.id, status="crashed", stderr="sandbox worker died",
                                 wall_time=time.monotonic() - t0)
        return self._supervise(job, limits, pid, waiter, zygote, out_r, err_r, rep_r, t0, work)

    def _send(self, python: str, preload: tuple[str, ...], hash_seed: int, spec: dict,
              fds: list[int], prelude: str = "") -> _Zygote:
        """Hand the job to this slot's zygote; one retry with a new one if it just died. A
        prelude goes to a zygote once (it runs at most ``_worker.MAX_PRELUDES``)."""
        for attempt in (0, 1):
            zygote = self.zygote(python, preload, hash_seed)
            new = (prelude and prelude not in zygote.preludes
                   and len(zygote.preludes) < _worker.MAX_PRELUDES)
            try:
                _worker.send_msg(zygote.sock, {**spec, "prelude": prelude if new else ""},
                                 fds=fds)
                if new:
                    zygote.preludes.add(prelude)
                return zygote
            except OSError:
                zygote.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _kill(self, pid: int) -> None:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
        if self.lease is not None and self.lease.exclusive:
            _kill_uid(self.uid)

    def _supervise(self, job: Job, limits: Limits, pid: int, waiter: int, zygote: _Zygote | None,
                   out_r: int, err_r: int, rep_r: int, t0: float, work: str) -> RunResult:
        self.running = pid
        try:
            return self._supervise_run(job, limits, pid, waiter, zygote, out_r, err_r, rep_r, t0,
                                       work)
        finally:
            self.running = None

    def abort(self) -> None:
        """Kill the job this slot is running now, if any (its result says ``killed``)."""
        pid = self.running
        if pid is not None:
            self._kill(pid)

    def _supervise_run(self, job: Job, limits: Limits, pid: int, waiter: int,
                       zygote: _Zygote | None, out_r: int, err_r: int, rep_r: int, t0: float,
                       work: str) -> RunResult:
        cap = limits.output_bytes
        bufs = {out_r: bytearray(), err_r: bytearray(), rep_r: bytearray()}
        sel = selectors.DefaultSelector()
        for fd in bufs:
            sel.register(fd, selectors.EVENT_READ)
        sel.register(waiter, selectors.EVENT_READ)
        deadline = t0 + limits.wall_time
        timed_out = over = zygote_died = truncated = False
        exited: dict[str, Any] | None = None
        drain_until: float | None = None
        open_fds = set(bufs)
        # the job's processes: below the zygote (a subreaper: the job's orphans stay below it)
        root = zygote.pid if zygote is not None else pid
        # its clones (peer slots' zygotes) and their jobs are below it too, but not this job's
        clones = [c.pid for c in zygote.clones] if zygote is not None else []
        tree_cpu, next_poll = 0.0, t0 + _POLL
        held = self.waiting_for
        while open_fds or exited is None:
            now = time.monotonic()
            if held is not None and exited is None:  # a job waiting for its peer is not late:
                if held.done():  # its wall clock runs again from the peer's end
                    deadline, held = max(deadline, now + limits.wall_time), None
                elif now >= deadline - _POLL:
                    deadline = now + _POLL
            if exited is None and not timed_out and now >= next_poll:
                next_poll = now + _POLL
                tree_cpu = max(tree_cpu, _accounting.tree_cpu(_accounting.descendants(
                    root, include_root=zygote is None, exclude=clones)))
                if tree_cpu > limits.cpu_seconds + _POLL:  # children's CPU is the job's too
                    timed_out = True
                    self._kill(pid)
                    deadline = now + 5
            if exited is None and now >= deadline and not timed_out:
                # wall time the job spent waiting for a CPU (a busy machine) does not count
                tasks = _accounting.descendants(root, include_root=zygote is None,
                                                exclude=clones)
                stretched = t0 + limits.wall_time + _accounting.queued_seconds(tasks)
                stretched = min(stretched, t0 + _MAX_STRETCH * limits.wall_time)
                if stretched > now + 0.01:
                    deadline = stretched
                else:
                    timed_out = True
                    self._kill(pid)
                    deadline = now + 5  # then wait for the worker to report the exit
            if exited is None and timed_out and now >= deadline:
                break
            if drain_until is not None and now >= drain_until:
                break
            limit = (drain_until if drain_until is not None else deadline) - now
            if exited is None and not timed_out:
                limit = min(limit, next_poll - now)
            for key, _ in sel.select(timeout=max(0.0, limit)):
                fd = key.fd
                if fd == waiter:
                    sel.unregister(waiter)
                    if zygote is None:
                        _, status, ru = os.wait4(pid, 0)
                        exited = {"exited": status, "utime": ru.ru_utime, "stime": ru.ru_stime,
                                  "maxrss_kb": ru.ru_maxrss}
                        os.close(waiter)
                        self._kill(pid)
                    else:
                        try:
                            exited, _ = _worker.recv_msg(zygote.sock)
                        except (EOFError, OSError):
                            zygote_died = True
                            self._kill(pid)
                            zygote.close()
                            exited = {}
                    drain_until = time.monotonic() + _DRAIN_GRACE
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    sel.unregister(fd)
                    os.close(fd)
                    open_fds.discard(fd)
                    continue
                buf = bufs[fd]
                room = (cap if fd != rep_r else 1 << 20) - len(buf)
                buf += chunk[: max(0, room)]
                if len(chunk) > room and fd != rep_r:
                    truncated = True
                    if not over:
                        over = True
                        self._kill(pid)
        if exited is None:  # the worker never reported: treat it as lost
            zygote_died = zygote is not None
            self._kill(pid)
            if zygote is not None:
                zygote.close()
            else:
                try:
                    _, status, ru = os.wait4(pid, 0)
                    exited = {"exited": status, "utime": ru.ru_utime, "stime": ru.ru_stime,
                              "maxrss_kb": ru.ru_maxrss}
                except ChildProcessError:
                    pass
            exited = exited or {}
        for fd in list(open_fds):
            sel.unregister(fd)
            os.close(fd)
        if waiter in sel.get_map():
            sel.unregister(waiter)
            if zygote is None:
                os.close(waiter)
        sel.close()
        wall = time.monotonic() - t0
        if exited:
            exited["tree_cpu"] = tree_cpu
        return _result(job, limits, exited, bufs[out_r], bufs[err_r], bytes(bufs[rep_r]), pid,
                       timed_out=timed_out, over=over, zygote_died=zygote_died,
                       truncated=truncated, wall=wall, files=_collect(work, job.collect, limits))


def _link_pipes() -> tuple[list[int], list[int]]:
    """Two pipes as the job's and the peer's [stdin, stdout]. ``os.pipe`` fds are close-on-exec:
    no program another thread starts meanwhile holds one (it would delay the other's EOF)."""
    to_peer = os.pipe()
    try:
        to_job = os.pipe()
    except BaseException:
        _close_fds(list(to_peer))
        raise
    return [to_job[0], to_peer[1]], [to_peer[0], to_job[1]]


def _eof_reader() -> int:
    """The read end of a pipe whose write end is closed: reads EOF at once."""
    r, w = os.pipe()
    os.close(w)
    return r


def _close_fds(fds: list[int]) -> None:
    """Close ``fds`` and empty the list (so that nothing closes them twice)."""
    while fds:
        os.close(fds.pop())


def _collect(work: str, names: tuple[str, ...], limits: Limits) -> dict[str, bytes]:
    """Read back files without following symlinks anywhere on the way (the program owns work/)."""
    out: dict[str, bytes] = {}
    cap = limits.file_size_mb * 1024 * 1024
    for name in names:
        parts = name.replace("\\", "/").split("/")
        fds = []
        try:
            fd = os.open(work, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
            fds.append(fd)
            for part in parts[:-1]:
                fd = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
                fds.append(fd)
            fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
            fds.append(fd)
            import stat

            if not stat.S_ISREG(os.fstat(fd).st_mode):
                continue
            with os.fdopen(os.dup(fd), "rb") as f:
                out[name] = f.read(cap)
        except OSError:
            continue
        finally:
            for fd in fds:
                os.close(fd)
    return out


def _result(job: Job, limits: Limits, exited: dict[str, Any], out: bytes, err: bytes,
            report: bytes, pid: int, *, timed_out: bool, over: bool, zygote_died: bool, truncated: bool,
            wall: float, files: dict[str, bytes]) -> RunResult:
    exception = None
    setup_error = None
    memory_error = False
    for line in report.splitlines():
        try:
            rep = json.loads(line)
            if rep.get("pid") != pid:
                continue
            if "exception" in rep:
                exception = ExceptionInfo(**{k: str(rep["exception"][k])
                                             for k in ("type", "message", "traceback")})
            setup_error = rep.get("setup_error") or setup_error
            memory_error = bool(rep.get("memory_error")) or memory_error
        except (ValueError, TypeError, KeyError, AttributeError):
            continue  # a program scribbling on the report pipe gets no exception info
    status_raw = exited.get("exited")
    exit_code = sig = None
    if isinstance(status_raw, int):
        if os.WIFSIGNALED(status_raw):
            sig = os.WTERMSIG(status_raw)
        elif os.WIFEXITED(status_raw):
            exit_code = os.WEXITSTATUS(status_raw)
    cpu = max(float(exited.get("utime", 0.0)) + float(exited.get("stime", 0.0)),
              float(exited.get("tree_cpu", 0.0)))
    stdout = out.decode("utf-8", errors="replace")
    stderr = err.decode("utf-8", errors="replace")
    if setup_error:
        stderr += f"\n[sandbox] setup failed: {setup_error}\n"
    status = classify(exit_code=exit_code, signal=sig, exception=exception, timed_out=timed_out,
                      over_output=over, zygote_died=zygote_died, cpu_time=cpu, limits=limits,
                      stderr=stderr, setup_failed=bool(setup_error), memory_error=memory_error)
    return RunResult(
        id=job.id, status=status, exit_code=exit_code, signal=sig, stdout=stdout, stderr=stderr,
        truncated=truncated, exception=exception, wall_time=round(wall, 6),
        cpu_time=round(cpu, 6), peak_memory_mb=round(exited.get("maxrss_kb", 0) / 1024, 3),
        files=files,
    )


def classify(*, exit_code: int | None, signal: int | None, exception: ExceptionInfo | None,
             timed_out: bool, over_output: bool, zygote_died: bool, cpu_time: float,
             limits: Limits, stderr: str = "", setup_failed: bool = False,
             memory_error: bool = False) -> str:
    """Map what happened to a status; the order of the checks is the precedence.

    >>> classify(exit_code=0, signal=None, exception=None, timed_out=False, over_output=False,
    ...          zygote_died=False, cpu_time=0.1, limits=Limits())
    'ok'
    """
    import signal as sg

    if over_output:
        return "output_limit"
    if timed_out:
        return "timeout"
    if setup_failed:
        return "crashed"
    if zygote_died:
        return "killed"
    if signal == sg.SIGXCPU or (signal == sg.SIGKILL and cpu_time >= limits.cpu_seconds - 0.05):
        return "timeout"
    if memory_error or (exception is not None and exception.type == "MemoryError"):
        return "memory"
    if signal is not None:
        if signal in (sg.SIGABRT, sg.SIGSEGV, sg.SIGBUS) and (
                "bad_alloc" in stderr or "Cannot allocate memory" in stderr
                or "MemoryError" in stderr):
            return "memory"
        return "killed" if signal in (sg.SIGKILL, sg.SIGTERM) else "crashed"
    if exit_code == 0:
        return "ok"
    return "error"


class Sandbox:
    """Runs programs isolated; see docs/sandbox.md for what isolation holds where.

    ``workers``: parallel slots (default: cores). ``executor``: any
    :class:`concurrent.futures.Executor` to spread jobs over (e.g. a dask client's executor);
    each of its worker processes then runs jobs with its own local Sandbox. ``python``: the
    interpreter (default: this one). ``preload``: modules the worker imports once before forking
    (default none; a job's own ``preload`` wins). ``env``: environment variables for the workers
    and every job (a job's ``env`` wins). ``user``: ``"auto"`` (as root: a dedicated
    unprivileged uid per slot; otherwise: yourself), ``None`` (no change of user), or a uid /
    user name. ``network=False`` cuts the network where the platform allows. ``fresh=True``
    starts a fresh interpreter per job instead of forking. ``hash_seed``: every job's
    ``PYTHONHASHSEED`` and the seed of its ``random`` and NumPy global generators (a job's
    own ``hash_seed`` wins), so set order and unseeded draws are the same in every worker and
    every run; a judge passes its run's seed. ``huge_pages``: the workers back their memory
    with 2 MB pages where the kernel can (cheaper forks; nothing a job sees changes; see
    docs/sandbox.md). Other keywords override
    :class:`Limits` fields. As root every job gets a private filesystem view (docs/sandbox.md).
    """

    def __init__(self, workers: int | None = None, executor: Executor | None = None,
                 python: str | None = None, preload: Iterable[str] | None = DEFAULT_PRELOAD,
                 user: str | int | None = "auto", network: bool = False, fresh: bool = False,
                 env: dict[str, str] | None = None, disk_mb: int = 1024, hash_seed: int = 0,
                 huge_pages: bool = True, **limit_overrides: Any):
        self.limits = replace(Limits(), **limit_overrides)
        self.disk_mb = int(disk_mb)
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.executor = executor
        self.python = python or sys.executable
        self.preload = tuple(preload or ())
        self.env = dict(env or {})
        self.user = user
        self.network = network
        self.fresh = fresh
        self.hash_seed = _check_hash_seed(hash_seed)
        self.huge_pages = bool(huge_pages)
        self._config = {"hash_seed": self.hash_seed, "huge_pages": self.huge_pages, "python": python, "preload": self.preload, "user": user,
                        "network": network, "fresh": fresh, "workers": workers,
                        "env": self.env, "disk_mb": disk_mb, **limit_overrides}
        _sweep_stale_mounts()
        self._base = tempfile.mkdtemp(prefix="qce-sandbox-")
        os.chmod(self._base, 0o711)
        Path(self._base, "owner").write_text(str(os.getpid()))
        self._mounts: list[str] = []
        self._disk = "host disk"
        self._home = os.path.join(self._base, "home")
        os.mkdir(self._home, 0o700)
        self._lock = threading.Lock()
        self._slots: queue.Queue[_Slot] = queue.Queue()
        self._all_slots: list[_Slot] = []
        # linked jobs' peers run here, never in a normal slot: see _run_linked
        self._peer_slots: queue.Queue[_Slot] = queue.Queue()
        self._all_peer_slots: list[_Slot] = []
        self._closed = False
        self._pool: ThreadPoolExecutor | None = None
        self._remote: set[Future[RunResult]] = set()  # executor jobs not done yet
        self._probed: set[tuple[str, tuple[str, ...]]] = set()  # fresh mode: preloads seen to import
        #: per (python, preload, hash_seed): a zygote that runs no job; every slot's zygote of
        #: the key is a clone of it, so the key's imports happen once per sandbox
        self._templates: dict[tuple[str, tuple[str, ...], int], _Zygote] = {}
        self._template_lock = threading.Lock()
        self._template_locks: dict[tuple[str, tuple[str, ...], int], threading.Lock] = {}
        self._retired: list[_Zygote] = []  # templates that failed to clone

    # ------------------------------------------------------------------ public API

    def run(self, source: str, stdin: str | bytes | None = None, **job_fields: Any) -> RunResult:
        """Run one program and return its result."""
        return self.run_job(Job(source, stdin=stdin, **job_fields))

    def run_job(self, job: Job) -> RunResult:
        if job.peer is not None:
            return self._run_linked(job)
        slot = self._acquire()
        try:
            return _guarded(slot.run, job)
        finally:
            self._slots.put(slot)

    def run_jobs(self, jobs: Iterable[Job | str]) -> list[RunResult]:
        """Run in parallel; results in job order (a plain source string becomes a Job)."""
        jobs = list(jobs)
        out: list[RunResult | None] = [None] * len(jobs)
        for i, r in self._map_indexed(jobs):
            out[i] = r
        return [r for r in out if r is not None]

    def submit(self, job: Job | str) -> Future[RunResult]:
        """Start one job; its future resolves to a result, whatever the program does. With an
        ``executor`` it raises :class:`ExecutorError` when the executor itself failed (a worker
        lost after its retries, an interpreter missing on the worker)."""
        job = job if isinstance(job, Job) else Job(job)
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=self.workers)
        if self.executor is not None:
            inner = self.executor.submit(_remote_run, self._config, job)
            with self._lock:
                self._remote.add(inner)
            inner.add_done_callback(self._remote.discard)
            return self._pool.submit(_await_remote, inner, job)
        return self._pool.submit(self.run_job, job)

    def map(self, jobs: Iterable[Job | str]) -> Iterator[RunResult]:
        """Run in parallel; yield results as they finish (``r.id`` names the job). With an
        ``executor``, its own failure raises :class:`ExecutorError` (see :meth:`submit`)."""
        for _, r in self._map_indexed(list(jobs)):
            yield r

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        for slot in self._all_slots + self._all_peer_slots:  # in-flight jobs end now
            slot.abort()
        for inner in list(self._remote):  # a dask future cancelled releases its task
            inner.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        # the slots' zygotes first: they are the templates' clones, which the templates reap
        # (init may not) when they exit themselves
        for slot in self._all_peer_slots + self._all_slots:
            slot.close()
        with self._template_lock:
            for z in [*self._templates.values(), *self._retired]:
                z.close()
            self._templates.clear()
            self._retired.clear()
        for path in self._mounts + _mounts_under(self._base):
            _unmount(path)
        _remove_tree(self._base)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    @property
    def isolation(self) -> dict[str, Any]:
        """What holds on this machine (user, network, filesystem view, preloads), for reports."""
        slot = self._all_slots[0] if self._all_slots else None
        info: dict[str, Any] = {"root": os.geteuid() == 0, "fresh_interpreter": self.fresh,
                                "filesystem": "private" if self._fs_config()["isolate_fs"]
                                else "host"}
        info["job_dirs"] = self._disk
        if slot is not None:
            info["uid"] = slot.uid
            for z in slot.zygotes.values():
                info["network"] = z.info.get("net")
                info["filesystem"] = z.info.get("filesystem")
                info["preloaded"] = z.info.get("preloaded")
                info["preload_failed"] = z.info.get("failed")
                info["huge_pages_mb"] = z.info.get("huge_pages_mb", 0)
        return info

    # ------------------------------------------------------------------ internals

    def _map_indexed(self, jobs: list[Job | str]) -> Iterator[tuple[int, RunResult]]:
        jobs = [j if isinstance(j, Job) else Job(j) for j in jobs]  # plain sources too
        jobs = [j if j.id else j.with_id(str(i)) for i, j in enumerate(jobs)]
        if self.executor is not None:
            futures = {self.executor.submit(_remote_run, self._config, j): i
                       for i, j in enumerate(jobs)}
        else:
            pool = ThreadPoolExecutor(max_workers=min(self.workers, max(1, len(jobs))))
            futures = {pool.submit(self.run_job, j): i for i, j in enumerate(jobs)}
        try:
            for f in as_completed(futures):
                i = futures[f]
                if self.executor is not None:
                    yield i, _await_remote(f, jobs[i])
                else:  # a result whatever the program does (PackageMissing: the machine's)
                    yield i, f.result()
        finally:
            for f in futures:
                f.cancel()
            if self.executor is None:
                pool.shutdown(wait=True)

    def _run_linked(self, job: Job) -> RunResult:
        """``job`` and its peer at once, each in a slot (a uid) of its own, each one's stdout
        the other's stdin. The job holds a normal slot while its peer waits for a peer slot:
        there are as many of those as normal slots, so a peer slot always comes free."""
        peer = job.peer
        assert peer is not None
        slot = self._acquire()
        try:
            peer_slot = self._acquire(peer=True)
            try:
                return self._run_pair(job, peer, slot, peer_slot)
            finally:
                self._peer_slots.put(peer_slot)
        finally:
            self._slots.put(slot)

    def _run_pair(self, job: Job, peer: Job, slot: _Slot, peer_slot: _Slot) -> RunResult:
        if os.geteuid() == 0 and slot.uid == peer_slot.uid:
            raise ValueError(f"job {job.id!r}: linked jobs need a uid per slot, so that the "
                             "peer cannot signal or trace the job: use Sandbox(user='auto')")
        for side, s in ((job, slot), (peer, peer_slot)):
            try:
                s.warm(side)
            except ExecutorError:
                raise
            except Exception:
                pass  # its run retries and reports the failure as its result
        job_link, peer_link = _link_pipes()
        peer_result: Future[RunResult] = Future()

        def run_peer() -> None:
            try:
                peer_result.set_result(_guarded(peer_slot.run, peer, peer_link))
            except BaseException as e:
                peer_result.set_exception(e)

        try:
            thread = threading.Thread(target=run_peer, name=f"qce-peer-{peer.id}", daemon=True)
            thread.start()
        except BaseException:
            _close_fds(peer_link)
            _close_fds(job_link)
            raise
        slot.waiting_for = peer_result
        try:
            result = _guarded(slot.run, job, job_link)
        finally:
            slot.waiting_for = None
            thread.join()
        return replace(result, peer=peer_result.result())

    def _acquire(self, peer: bool = False) -> _Slot:
        """A free slot (a normal one, or a linked job's peer slot), made on demand."""
        if self._closed:
            raise RuntimeError("Sandbox is closed")
        free, made = ((self._peer_slots, self._all_peer_slots) if peer
                      else (self._slots, self._all_slots))
        try:
            return free.get_nowait()
        except queue.Empty:
            pass
        with self._lock:
            if len(made) < self.workers:
                slot = _Slot(self, self._lease())
                made.append(slot)
                return slot
        return free.get()

    def _clone_template(self, key: tuple[str, tuple[str, ...], int]) -> _Zygote:
        """A new zygote for ``key``: a clone of the key's template (started on first use; over
        3 templates, those without a serving clone are closed, the oldest first), or started
        afresh if cloning fails."""
        with self._template_lock:
            if self._closed:
                raise RuntimeError("Sandbox is closed")
            lock = self._template_locks.setdefault(key, threading.Lock())
        with lock:  # one start per key; a template serves one clone request at a time
            template = self._templates.get(key)
            if template is not None and not template.alive:
                template = None
            if template is None:
                template = self._start_zygote(key)
                with self._template_lock:
                    dead = self._templates.pop(key, None)  # the key's template that died
                    old = [dead] if dead is not None else []
                    if not self._closed:
                        self._templates[key] = template
                        # bound memory: a template none of whose clones serves is closed,
                        # the oldest first (closing one that has would orphan its clones)
                        idle = [k for k, z in self._templates.items()
                                if k != key and not any(c.alive for c in z.clones)]
                        for k in idle[:max(0, len(self._templates) - 3)]:
                            old.append(self._templates.pop(k))
                for z in old:
                    z.close()
                if self._closed:
                    template.close()
                    raise RuntimeError("Sandbox is closed")
            try:
                return _Zygote.clone(template)
            except Exception:  # an optimisation only: start afresh, and the template anew
                with self._template_lock:
                    if self._templates.get(key) is template:
                        self._templates.pop(key)
                    # its socket may be out of step (a reply still to come): no more requests;
                    # closed with the sandbox, after the clones it may still have
                    self._retired.append(template)
        return self._start_zygote(key)

    def _start_zygote(self, key: tuple[str, tuple[str, ...], int]) -> _Zygote:
        """A zygote for ``key`` started afresh: its own interpreter and imports."""
        python, preload, hash_seed = key
        z = _Zygote(python, preload, not self.network, self._home, self.env, self._fs_config(),
                    hash_seed)
        failed = {name: error for name, error in (z.info.get("failed") or {}).items()
                  if not error.startswith("refused")}
        if failed:
            z.close()
            if any(error.startswith("MemoryError") for error in failed.values()):
                # the machine's state at this moment, not its set-up: this job only fails
                raise RuntimeError(f"sandbox worker could not import {', '.join(failed)}: "
                                   + "; ".join(failed.values()))
            # every job of this kind would fail the same way: not the program's fault
            raise PackageMissing(python, failed, socket.gethostname(),
                                 os.path.abspath(python) == os.path.abspath(sys.executable))
        return z

    def _lease(self) -> UidLease | None:
        if self.user is None:
            return None
        if self.user == "auto":
            return lease_uid() if os.geteuid() == 0 else None
        if os.geteuid() != 0:
            raise PermissionError("Sandbox(user=...) needs root; use user='auto' or None")
        return UidLease.fixed(self.user)

    def _slot_dir(self) -> str:
        """A directory for one slot's jobs. As root it is a tmpfs of ``disk_mb`` (and 65536
        inodes): a job's directory is writable and otherwise only each file is capped
        (RLIMIT_FSIZE), so a job could fill the host's disk with many files."""
        path = tempfile.mkdtemp(prefix="slot-", dir=self._base)
        os.chmod(path, 0o711)
        if self._fs_config()["isolate_fs"]:
            try:
                _worker._mount("tmpfs", path, "tmpfs", _worker.MS_NOSUID | _worker.MS_NODEV,
                               f"mode=711,size={self.disk_mb}m,nr_inodes=65536")
                self._mounts.append(path)
                self._disk = f"tmpfs of {self.disk_mb} MB per slot"
            except OSError as e:  # no CAP_SYS_ADMIN: the jobs' namespaces fail too, and say so
                self._disk = f"host disk (tmpfs: {e})"
        return path

    def _fs_config(self) -> dict[str, Any]:
        """The zygote's set-up besides its preloads: private mount namespaces need root; this
        package's files are what they hide; its memory in 2 MB pages where the kernel can."""
        return {"isolate_fs": os.geteuid() == 0, "hide_packages": [_PACKAGE],
                "hide_paths": [_PACKAGE_DIR], "jobs_dir": self._base,
                "huge_pages": self.huge_pages}


def _guarded(run: Any, job: Job, *args: Any) -> RunResult:
    """``run(job, *args)``: the sandbox's own failure still yields a result."""
    try:
        return run(job, *args)
    except ExecutorError:  # the machine cannot run such jobs: no result is the program's
        raise
    except Exception as e:
        return RunResult(id=job.id, status="crashed", stderr=f"[sandbox] {type(e).__name__}: {e}")


def _check_hash_seed(seed: int) -> int:
    """``PYTHONHASHSEED`` takes 0..2**32-1."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
        raise ValueError(f"hash_seed must be an int in [0, 2**32), got {seed!r}")
    return seed


def _remove_tree(path: str) -> None:
    """Remove a directory a job wrote into; never raises. ``shutil.rmtree`` recurses once per
    level: a job that nests a few thousand directories made it raise ``RecursionError``, which
    lost the job's result and left the tree behind (and made ``close()`` raise)."""
    try:
        shutil.rmtree(path, ignore_errors=True)
    except RecursionError:
        pass
    if os.path.lexists(path):  # iterative, does not follow symlinks or cross mounts
        subprocess.run(["rm", "-rf", "--one-file-system", "--", path], stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def _unmount(path: str) -> None:
    """Detach a slot's tmpfs (lazily: a job's namespace may still be going away)."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).umount2(os.fsencode(path), 2)  # MNT_DETACH


def _mounts_under(base: str) -> list[str]:
    """The mount points below ``base`` (deepest first)."""
    try:
        with open("/proc/self/mountinfo") as f:
            points = [line.split()[4] for line in f]
    except OSError:
        return []
    return sorted((p for p in points if p.startswith(base.rstrip("/") + "/")), reverse=True)


_FORKS = threading.Lock()
_FORK_TRIES = 100


def _kill_uid(uid: int) -> None:
    """``_worker.kill_uid`` (which forks this multi-threaded process) one slot at a time.

    From Python 3.12 on, filelock (imported by datasets and huggingface_hub) installs an audit
    hook that makes ``os.fork`` raise ``RuntimeError`` while another thread of the process is
    forking: two slots forking at once lost one slot's job ("crashed" before the program ran,
    judged as the program's). The hook raises before the fork, so a fork of other code in
    progress is waited out and retried."""
    for attempt in range(_FORK_TRIES):
        try:
            with _FORKS:
                _worker.kill_uid(uid)
            return
        except RuntimeError:
            if attempt == _FORK_TRIES - 1:
                raise
            time.sleep(0.01)


def _sweep_stale_mounts() -> None:
    """Unmount the slot directories of sandboxes whose process is gone (killed with -9: its
    ``close`` never ran) or that lost their ``owner`` file, then remove their directories, so
    that their tmpfs memory is freed. A live sandbox writes ``owner`` before it mounts anything
    and removes it only after unmounting."""
    if os.geteuid() != 0:
        return
    prefix = os.path.join(os.path.realpath(tempfile.gettempdir()), "qce-sandbox-")
    bases = {os.path.dirname(p) for p in _mounts_under(os.path.dirname(prefix))
             if os.path.dirname(p).startswith(prefix)
             and os.path.basename(p).startswith("slot-")}
    for base in sorted(bases):
        try:
            owner: int | None = int(Path(base, "owner").read_text())
        except (OSError, ValueError):
            owner = None
        if owner is None or not os.path.exists(f"/proc/{owner}"):
            for point in _mounts_under(base):  # all of them before removing anything
                _unmount(point)
            _remove_tree(base)


_PROCESS_SANDBOXES: dict[str, Sandbox] = {}
_PROCESS_LOCK = threading.Lock()


def _await_remote(inner: Future[RunResult], job: Job) -> RunResult:
    """The remote result; the executor's own failure is an :class:`ExecutorError`, never a
    result a judge could take for the program's."""
    try:
        return inner.result()
    except ExecutorError:
        raise
    except Exception as e:
        raise ExecutorError(f"job {job.id}: the executor could not run it: "
                            f"{type(e).__name__}: {e}") from e


def missing_interpreters(pythons: Iterable[str]) -> list[str]:
    """The interpreters of ``pythons`` that this machine cannot run (a cluster's pre-flight)."""
    return [p for p in pythons if not (os.path.isfile(p) and os.access(p, os.X_OK))]


def _remote_run(config: dict[str, Any], job: Job) -> RunResult:
    """Executor entry point: run ``job`` with this process's own Sandbox for ``config``."""
    python = job.python or config.get("python")
    if python and missing_interpreters([python]):
        raise InterpreterMissing(python, socket.gethostname())
    key = json.dumps(config, sort_keys=True, default=str)
    with _PROCESS_LOCK:
        sb = _PROCESS_SANDBOXES.get(key)
        if sb is None:
            sb = _PROCESS_SANDBOXES[key] = Sandbox(**config)
            import atexit

            atexit.register(sb.close)
    return sb.run_job(job)
