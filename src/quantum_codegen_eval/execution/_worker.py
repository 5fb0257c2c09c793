"""The sandbox worker: the code that runs untrusted programs. Standard library only.

It runs inside whatever interpreter a job names (any virtualenv, old library versions too), by
path: ``python -s -X utf8 _worker.py MODE ...`` with ``PYTHONHASHSEED`` set (``-I`` would ignore
it) and no other ``PYTHON*`` variable; it drops its own directory from ``sys.path`` first. It names no library: what it pre-imports comes
from its configuration (the judges' jobs). Modes:

``zygote CONTROL_FD CONFIG_JSON``
    pre-import the configured modules (importing only: no library code beyond module bodies is
    executed, so no thread pool exists when we fork), compute the jobs' filesystem layout,
    optionally enter a new network namespace, then serve jobs received on the control socket:
    fork one child per job, isolate it, wait for it, kill whatever it left behind, report the
    exit status and resource usage.
``single SPEC_PATH``
    run one job in this very process (a fresh interpreter per job: the slow, simple path).

Messages on the control socket are 4-byte big-endian length + JSON; a job message carries four
file descriptors (stdin, stdout, stderr, report) as SCM_RIGHTS.
"""

import os
import sys

if sys.path and os.path.realpath(sys.path[0]) == os.path.dirname(os.path.realpath(__file__)):
    del sys.path[0]  # the sandbox's own modules (types.py, ...) must not shadow the stdlib

# Everything the child needs is imported here, before it enters its private root and drops
# privileges.
import atexit
import ctypes
import gc
import json
import random
import resource
import select
import signal
import socket
import struct
import time
import traceback
import types

REPORT_FD = 3
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000
# keyctl(2): glibc has no wrapper, so by syscall number (other architectures: no keyring hygiene)
SYS_KEYCTL = {"x86_64": 250, "aarch64": 219, "i686": 288, "i386": 288, "armv7l": 311,
              "armv6l": 311, "ppc64le": 312, "s390x": 280, "riscv64": 219}
KEYCTL_JOIN_SESSION_KEYRING, KEYCTL_CLEAR, KEYCTL_UNLINK, KEYCTL_GET_PERSISTENT = 1, 7, 9, 22
KEY_SPEC_THREAD_KEYRING, KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING = -1, -4, -5

_libc = None


def _c():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def _prctl(option, arg2=0):
    if _c().prctl(option, ctypes.c_ulong(arg2), 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl({option}): {os.strerror(err)}")


MADV_HUGEPAGE, MADV_COLLAPSE = 14, 25
HUGE = 1 << 21


def collapse_huge_pages():
    """Back the zygote's anonymous memory (the preloaded frameworks' objects) with 2 MB pages
    where the kernel can (Linux >= 6.1, transparent huge pages not ``never``): a fork then
    copies one entry per 2 MB instead of 512, and the job's exit tears down as few; a page the
    job writes is split and copied 4 KB at a time, as before. Returns the MB collapsed; 0
    where it is not available (nothing else changes)."""
    libc = _c()
    libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    done = 0
    try:
        with open("/proc/self/maps") as f:
            maps = f.read().splitlines()
    except OSError:
        return 0
    for line in maps:
        parts = line.split()
        if len(parts) < 5 or not parts[1].startswith("rw") or (
                len(parts) > 5 and parts[5] != "[heap]"):
            continue  # private anonymous memory only (no file, no stack)
        lo, hi = (int(x, 16) for x in parts[0].split("-"))
        start, end = (lo + HUGE - 1) & ~(HUGE - 1), hi & ~(HUGE - 1)
        if end - start < HUGE:
            continue
        if libc.madvise(start, end - start, MADV_HUGEPAGE) != 0:
            return done >> 20  # not supported here
        if libc.madvise(start, end - start, MADV_COLLAPSE) == 0:
            done += end - start
    return done >> 20


def _keyctl(op, *args):
    nr = SYS_KEYCTL.get(os.uname().machine)
    if nr is None:
        return -1
    return _c().syscall(ctypes.c_long(nr), ctypes.c_long(op),
                        *[ctypes.c_long(a) for a in args])


def clear_keyrings():
    """Empty the kernel keyrings that belong to the current real uid and outlive its processes
    (the user, user-session and persistent keyrings): a job could otherwise leave keys there
    for every later job of its uid, the judge's trusted jobs included."""
    # linked into our thread keyring we possess it: its owner has no write permission on it
    persistent = _keyctl(KEYCTL_GET_PERSISTENT, -1, KEY_SPEC_THREAD_KEYRING)
    if persistent > 0:
        _keyctl(KEYCTL_CLEAR, persistent)
        _keyctl(KEYCTL_UNLINK, persistent, KEY_SPEC_THREAD_KEYRING)
    for spec in (KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING):
        _keyctl(KEYCTL_CLEAR, spec)


# ---------------------------------------------------------------- messages


def send_msg(sock, obj, fds=()):
    data = json.dumps(obj).encode()
    payload = struct.pack(">I", len(data)) + data
    if fds:
        socket.send_fds(sock, [payload], list(fds))
    else:
        sock.sendall(payload)


def _recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise EOFError("control socket closed")
        buf += chunk
    return buf


def recv_msg(sock, nfds=0):
    fds = []
    if nfds:
        head, fds, _flags, _addr = socket.recv_fds(sock, 4, nfds)
        if not head:
            raise EOFError("control socket closed")
        head += _recv_exact(sock, 4 - len(head))
    else:
        head = _recv_exact(sock, 4)
    (n,) = struct.unpack(">I", head)
    return json.loads(_recv_exact(sock, n)), fds


# ---------------------------------------------------------------- privileges


def drop_privileges(uid, gid):
    """Become ``uid``/``gid`` with no supplementary groups and no capabilities."""
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    _prctl(PR_SET_NO_NEW_PRIVS, 1)
    # changing uid made us non-dumpable (no exec resets it): /proc/self would then be root's
    _prctl(PR_SET_DUMPABLE, 1)


def unshare_network():
    """Enter a new network namespace (only a loopback, down). Returns a description."""
    uid, gid = os.getuid(), os.getgid()
    if os.geteuid() == 0:
        flags = CLONE_NEWNET
    else:
        flags = CLONE_NEWUSER | CLONE_NEWNET
    if _c().unshare(flags) != 0:
        err = ctypes.get_errno()
        return "unshare failed: " + os.strerror(err)
    if flags & CLONE_NEWUSER:
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                           ("gid_map", f"{gid} {gid} 1")):
            try:
                with open("/proc/self/" + name, "w") as f:
                    f.write(text)
            except OSError:
                pass
        return "isolated (user namespace)"
    return "isolated"


def interpreter_paths():
    """The interpreter's own paths a program may lazily read (prefixes, stdlib, sys.path)."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             os.path.dirname(os.__file__), os.path.dirname(os.path.realpath(sys.executable))}
    here = os.path.dirname(os.path.abspath(__file__))
    paths.update(p for p in sys.path if os.path.isabs(p) and p != here)
    try:
        import sysconfig

        paths.update(v for k, v in sysconfig.get_paths().items() if k not in ("include",
                                                                             "platinclude"))
    except Exception:
        pass
    return sorted(p for p in paths if p and os.path.exists(p))


def package_dirs(names, extra=()):
    """Where the packages ``names`` live for this interpreter (found, not imported)."""
    import importlib.util

    found = {os.path.realpath(p) for p in extra if p}
    for name in names:
        for entry in sys.path:
            if os.path.isabs(entry) and os.path.isdir(os.path.join(entry, name)):
                found.add(os.path.realpath(os.path.join(entry, name)))
        try:
            spec = importlib.util.find_spec(name)
        except Exception:
            spec = None
        if spec is not None:
            for loc in spec.submodule_search_locations or ():
                found.add(os.path.realpath(loc))
    return sorted(p for p in found if os.path.isdir(p))


# ---------------------------------------------------------------- filesystem

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_ENTRIES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "ssl/certs", "ssl/openssl.cnf",
               "ca-certificates", "ca-certificates.conf", "pki", "alternatives", "localtime",
               "timezone", "nsswitch.conf", "hosts", "host.conf", "resolv.conf", "mime.types",
               "os-release", "debian_version", "protocols", "services")
DEVICES = ("null", "zero", "full", "random", "urandom")
_FS_PLAN = None
_CLONES = set()  # pids of the zygotes forked from this one ({"clone": true}): not a job's


def _mount(src, dst, fstype=None, flags=0, data=None):
    enc = [None if v is None else os.fsencode(v) for v in (src, dst, fstype, data)]
    if _c().mount(enc[0], enc[1], enc[2], ctypes.c_ulong(flags), enc[3]) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount {src} on {dst}: {os.strerror(err)}")


def _covered(path, mounted):
    return any(path == m or path.startswith(m.rstrip("/") + "/") for m in mounted)


class Layout:
    """The mount operations that build a job's root, recorded once (in the zygote) against
    root-relative paths and replayed in each child with a few syscalls each."""

    def __init__(self, base=None):
        self.ops = list(base.ops) if base else []
        self.made = set(base.made) if base else {"/"}
        self.mounted = list(base.mounted) if base else []

    def mkdirs(self, path, mode=0o755):
        cur = ""
        for part in path.strip("/").split("/"):
            if not part:
                continue
            cur += "/" + part
            if cur not in self.made and not _covered(cur, self.mounted):
                self.ops.append(("mkdir", cur, mode))
                self.made.add(cur)

    def resolve(self, path, depth=0):
        """The real host path of ``path``, recreating the symlinks met on the way (unless a
        bind mount already shows them)."""
        if depth > 40:
            raise OSError(f"too many symlinks: {path}")
        parts = [p for p in path.split("/") if p]
        cur = "/"
        for i, part in enumerate(parts):
            nxt = os.path.join(cur, part)
            if os.path.islink(nxt):
                target = os.readlink(nxt)
                if nxt not in self.made and not _covered(nxt, self.mounted):
                    self.mkdirs(cur)
                    self.ops.append(("symlink", target, nxt))
                    self.made.add(nxt)
                resolved = os.path.normpath(os.path.join(cur, target))
                return self.resolve(os.path.join(resolved, *parts[i + 1:]), depth + 1)
            cur = nxt
        return cur

    def expose(self, path, writable=False, flags=MS_NOSUID | MS_NODEV):
        """Bind host ``path`` at the same place (read-only unless ``writable``)."""
        if not os.path.lexists(path):
            return
        real = self.resolve(path)
        if _covered(real, self.mounted) or not os.path.exists(real):
            return
        self.mkdirs(os.path.dirname(real))
        if real not in self.made:
            isdir = os.path.isdir(real)
            self.ops.append(("mkdir", real, 0o755) if isdir else ("touch", real, 0o644))
            self.made.add(real)
        self.ops.append(("bind", real, real, flags | (0 if writable else MS_RDONLY)))
        self.mounted.append(real)

    def tmpfs(self, path, mode, size=None, flags=MS_NOSUID | MS_NODEV):
        """A fresh tmpfs (``size=None``: the job's temporary-space size)."""
        self.mkdirs(path)
        self.ops.append(("tmpfs", path, mode, size, flags))

    def symlink(self, target, path):
        self.ops.append(("symlink", target, path))
        self.made.add(path)

    def mask(self, path):
        """Show an empty read-only directory at ``path`` if it is visible at all."""
        if _covered(path, self.mounted) or path in self.made:
            self.ops.append(("tmpfs", path, 0o755, 4096, MS_NOSUID | MS_NODEV | MS_RDONLY))


def fs_plan(config):
    """What a job's private root shows, computed once per interpreter (in the zygote): the
    system's /usr and libraries, fresh /tmp, the interpreter's own paths, a minimal /etc and
    /dev; then either the hidden packages' directories masked (untrusted) or bound (trusted)."""
    jobs_dir = os.path.realpath(config.get("jobs_dir") or "/nonexistent")
    hidden = package_dirs(config.get("hide_packages", ()), config.get("hide_paths", ()))
    base = Layout()
    for d in SYSTEM_DIRS:
        base.expose(d)
    base.tmpfs("/tmp", 0o1777)  # before the binds: a job's directory usually lives below it
    for path in sorted(interpreter_paths(), key=len):
        real = os.path.realpath(path)
        if real == "/" or _covered(jobs_dir, [real]) or _covered(real, [jobs_dir]):
            continue  # it would show the host's /tmp, and with it every other job's directory
        base.expose(path)
    base.mkdirs("/etc")
    for name in ETC_ENTRIES:
        base.expose("/etc/" + name)
    base.tmpfs("/dev", 0o755, 65536, MS_NOSUID | MS_NOEXEC)
    for name in DEVICES:
        base.expose("/dev/" + name, writable=True, flags=MS_NOSUID | MS_NOEXEC)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        base.symlink(target, "/dev/" + name)
    base.tmpfs("/dev/shm", 0o1777)
    base.mkdirs("/proc", 0o555)
    trusted, untrusted = Layout(base), Layout(base)
    for path in hidden:
        trusted.expose(path)
        untrusted.mask(path)  # e.g. a wheel install inside site-packages: an empty directory
    return {"untrusted": untrusted, "trusted": trusted, "hidden": hidden}


def _apply(root, ops, tmp_size):
    for op in ops:
        kind = op[0]
        path = root + (op[2] if kind == "symlink" else op[1])
        if kind == "mkdir":
            os.mkdir(path, op[2])
        elif kind == "touch":
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, op[2]))
        elif kind == "symlink":
            os.symlink(op[1], path)
        elif kind == "bind":
            _mount(op[1], path, None, MS_BIND | MS_REC)
            _mount(None, path, None, MS_BIND | MS_REMOUNT | op[3])
        elif kind == "tmpfs":
            size = op[3] or tmp_size
            _mount("tmpfs", path, "tmpfs", op[4], f"mode={op[2]:o},size={size},nr_inodes=65536")


def _proc_options():
    """hidepid per mount exists since Linux 5.8; before, it would change the host's /proc."""
    try:
        major, minor = (int(x) for x in os.uname().release.split(".")[:2])
    except ValueError:
        return None
    return "hidepid=invisible" if (major, minor) >= (5, 8) else None


def _write(path, text, mode=0o644):
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, mode)
    with os.fdopen(fd, "w") as f:
        f.write(text)


def isolate_filesystem(spec, plan):
    """Give this process (root, about to drop to the job's uid) a private mount namespace whose
    root shows only what :func:`fs_plan` lists, plus the job's script (read-only), its working
    dir (read-write), generated /etc/passwd and /etc/group, and a /proc hiding other users'
    processes. Untrusted jobs see the hidden package directories empty or not at all; trusted
    ones see them read-only. Nothing else of the host exists in there."""
    work, script = spec["workdir"], spec["script"]
    root = os.path.join(os.path.dirname(work), "root")
    os.mkdir(root, 0o755)
    # a private IPC namespace too: System V shared memory, semaphores and message queues (and
    # POSIX message queues) outlive their process; in the host's namespace a job's would stay
    # on the host, taking memory and readable by every later job of the slot's uid
    if _c().unshare(CLONE_NEWNS | CLONE_NEWIPC) != 0:
        err = ctypes.get_errno()
        raise OSError(err, "unshare(CLONE_NEWNS | CLONE_NEWIPC): " + os.strerror(err))
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "mode=755,size=4m,nr_inodes=4096")
    layout = Layout(plan["trusted"] if spec.get("trusted") else plan["untrusted"])
    layout.expose(script)
    layout.expose(work, writable=True)
    _apply(root, layout.ops, int(spec["limits"]["fsize"]))
    uid, gid = spec.get("uid"), spec.get("gid")
    users = "root:x:0:0:root:/root:/usr/sbin/nologin\n"
    groups = "root:x:0:\n"
    if uid is not None:
        users += f"sandbox:x:{uid}:{gid}:sandbox:{work}:/usr/sbin/nologin\n"
        groups += f"sandbox:x:{gid}:\n"
    users += "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
    groups += "nogroup:x:65534:\n"
    _write(root + "/etc/passwd", users)
    _write(root + "/etc/group", groups)
    _mount("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, _proc_options())
    _mount(None, root, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    _enter_root(root)


def _enter_root(root):
    """chroot, not pivot_root: detaching the old root costs an RCU grace period (~10 ms of wall
    time per job here). The job cannot leave it: it has no capability (no chroot(2) of its own),
    holds no directory fd from outside, sees no process outside (hidepid), and the kernel
    refuses a chrooted process a new user namespace (where it would regain CAP_SYS_CHROOT).
    What it can still see is /proc/self/mountinfo: the host's mount points, not their files."""
    os.chdir(root)
    os.chroot(".")
    os.chdir("/")


# ---------------------------------------------------------------- the child


def _set_limits(lim):
    cpu = int(lim["cpu"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for name, key in (("RLIMIT_AS", "as"), ("RLIMIT_NPROC", "nproc"), ("RLIMIT_FSIZE", "fsize")):
        value = int(lim[key])
        res = getattr(resource, name)
        _soft, hard = resource.getrlimit(res)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(res, (value, value))


def _type_name(tp):
    mod = getattr(tp, "__module__", "builtins")
    name = getattr(tp, "__qualname__", tp.__name__)
    return name if mod in ("builtins", "__main__") else mod + "." + name


def _close_report():
    try:
        os.close(REPORT_FD)
    except OSError:
        pass


def _report(obj):
    """One line on the report pipe, tagged with our pid, short enough to be written atomically."""
    obj["pid"] = os.getpid()
    exc = obj.get("exception")
    if exc:
        exc["message"] = exc["message"][:1000]
        exc["traceback"] = exc["traceback"][-2500:]
    try:
        os.write(REPORT_FD, (json.dumps(obj) + "\n").encode()[:4000])
    except Exception:
        pass


def _exit_code(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write(str(code) + "\n")
    except Exception:
        pass
    return 1


def _finish(code):
    """Shut down like the interpreter would (non-daemon threads, atexit, flush), then _exit."""
    try:
        if "threading" in sys.modules:
            sys.modules["threading"]._shutdown()
    except BaseException:
        pass
    try:
        atexit._run_exitfuncs()
    except BaseException:
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            if stream is sys.stdout and code == 0:
                code = 120  # what CPython exits with when the final flush of stdout fails
    os._exit(code)


def _rekey_stevedore(old_path):
    """The entry-point loader stevedore (if a preload imported it) caches its scan by
    ``tuple(sys.path)``; the job's path differs from the zygote's only by its working dir, so
    reuse the scan instead of redoing it."""
    cache = sys.modules.get("stevedore._cache")
    internal = getattr(getattr(cache, "_c", None), "_internal", None)
    if isinstance(internal, dict) and old_path in internal:
        internal[tuple(sys.path)] = internal[old_path]


def run_program(spec):
    """Run the job's program as ``__main__`` in this (already isolated) process; never returns."""

    path = spec["script"]
    with open(path, encoding="utf-8") as f:
        source = f.read()
    sys.argv = [path] + list(spec["argv"])
    old_path = tuple(sys.path)
    sys.path[:] = [spec["workdir"]] + [p for p in sys.path if p and p != os.path.dirname(__file__)]
    _rekey_stevedore(old_path)
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    code = 0
    try:
        exec(compile(source, path, "exec"), main.__dict__)
    except SystemExit as e:
        code = _exit_code(e.code)
    except BaseException as e:
        tb = e.__traceback__
        tb = tb.tb_next if tb is not None else tb  # drop this frame
        text = "".join(traceback.format_exception(type(e), e, tb))
        try:
            sys.stderr.write(text)
            sys.stderr.flush()
        except Exception:
            pass
        _report({"exception": {"type": _type_name(type(e)), "message": _safe_str(e),
                               "traceback": text},
                 "memory_error": isinstance(e, MemoryError)})
        code = 1
    _finish(code)


def _safe_str(e):
    try:
        return str(e)
    except BaseException:
        return f"<unprintable {type(e).__name__}>"


def enter_child(spec):
    """Isolate this process for one job: session, fds, filesystem, cwd, env, limits, uid."""
    if os.getpgid(0) != os.getpid():
        os.setsid()
    os.closerange(REPORT_FD + 1, 1 << 16)
    if spec.get("isolate_fs"):
        isolate_filesystem(spec, _FS_PLAN if _FS_PLAN is not None else fs_plan(spec))
    os.chdir(spec["workdir"])
    os.environ.clear()
    os.environ.update(spec["env"])
    os.umask(0o077)
    _set_limits(spec["limits"])
    if spec.get("uid") is not None:
        drop_privileges(spec["uid"], spec["gid"])
    # a session keyring of our own: the one inherited from the evaluator is possessed (readable,
    # writable) by every process that inherits it, whatever its uid
    _keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0)
    os.register_at_fork(after_in_child=_close_report)  # the program's own forks get no report fd
    if spec.get("pdeathsig"):
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() == 1:
            os._exit(137)
    # unseeded draws come from the run's seed: the same in every worker and every run
    seed = int(spec.get("seed", 0))
    random.seed(seed)
    _NUMPY_SEED[0] = seed
    np_random = sys.modules.get("numpy.random")
    if np_random is not None:
        seed_numpy(np_random)
    else:  # the program may import it later (no preload, a fresh interpreter)
        sys.meta_path.insert(0, _SeedNumpyOnImport())


# ---------------------------------------------------------------- numpy's unseeded draws

_NUMPY_SEED = [0]     # the run's seed, set in each job
_NUMPY_STREAMS = [0]  # unseeded generators made so far in this job
_MODULE_GENERATORS = []  # (module, attribute): generators the preloaded modules made at import


def _default_rng(original):
    def default_rng(seed=None):
        """numpy's ``default_rng``; unseeded, the next stream derived from the run's seed."""
        if seed is None:
            _NUMPY_STREAMS[0] += 1
            seed = [_NUMPY_SEED[0], _NUMPY_STREAMS[0]]
        return original(seed)

    default_rng.__doc__ = original.__doc__
    default_rng.qce_original = original
    return default_rng


def hook_numpy(np_random):
    """Route unseeded ``default_rng()`` through the run's seed: numpy's own and every module's
    reference to it (``from numpy.random import default_rng``); note the generators modules
    made at import (reseeded in each job). Once per process, in the zygote after preload."""
    original = getattr(np_random, "default_rng", None)
    if original is None or hasattr(original, "qce_original"):
        return
    wrapper = _default_rng(original)
    generator = np_random.Generator
    for name, module in list(sys.modules.items()):
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for attr, value in list(namespace.items()):
            if value is original:
                namespace[attr] = wrapper
            elif type(value) is generator and not name.startswith("numpy"):
                _MODULE_GENERATORS.append((module, attr))


def seed_numpy(np_random):
    """Seed numpy's legacy global generator (not reseeded at fork, unlike ``random``), its
    unseeded ``default_rng()`` streams and the module generators from the run's seed."""
    try:
        hook_numpy(np_random)
        np_random.seed(_NUMPY_SEED[0])
        _NUMPY_STREAMS[0] = 0
        original = np_random.default_rng.qce_original
        for i, (module, attr) in enumerate(_MODULE_GENERATORS):
            fresh = original([_NUMPY_SEED[0], 0, i])
            getattr(module, attr).bit_generator.state = fresh.bit_generator.state
    except Exception:
        pass


class _SeedNumpyOnImport:
    """A meta path finder that seeds ``numpy.random`` when the program first imports it."""

    def find_spec(self, name, path, target=None):
        if name != "numpy.random":
            return None
        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find is not None else None
            if spec is not None and spec.loader is not None:
                execute = spec.loader.exec_module

                def exec_module(module, execute=execute):
                    execute(module)
                    seed_numpy(module)

                spec.loader.exec_module = exec_module
                return spec
        return None


# ---------------------------------------------------------------- cleanup


def kill_uid_once(uid):
    """SIGKILL every process whose real or saved uid is ``uid`` (we must be root).

    The zygote is single-threaded, so it briefly takes ``uid`` as its real and effective uid
    (keeping root as the saved uid to come back): kill(-1) then reaches exactly that uid's
    processes, with no helper process to fork.
    """
    os.setresuid(uid, uid, 0)
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass
    finally:
        os.setresuid(0, 0, 0)


def clear_keyrings_of(uid):
    """:func:`clear_keyrings` for ``uid`` (from root, briefly taking it as the real uid)."""
    os.setresuid(uid, uid, 0)
    try:
        clear_keyrings()
    finally:
        os.setresuid(0, 0, 0)


def kill_uid(uid):
    """From a multi-threaded parent: a forked helper becomes ``uid`` and kills the rest."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setresuid(uid, uid, uid)
            for _ in range(100):
                os.kill(-1, signal.SIGKILL)
                if not [p for p in _pids_of_uid(uid) if p != os.getpid()]:
                    break
                time.sleep(0.001)
            clear_keyrings()
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def _pids_of_uid(uid):
    pids = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/" + name + "/status") as f:
                for line in f:
                    if line.startswith("State:") and line.split()[1] in ("Z", "X"):
                        break  # a zombie waits for its parent, not for us
                    if line.startswith("Uid:"):
                        if int(line.split()[1]) == uid:
                            pids.append(int(name))
                        break
        except OSError:
            continue
    return pids


def cleanup(uid):
    """After a job: kill and reap everything it left. As a subreaper the zygote inherits every
    orphaned descendant (setsid or double fork does not escape that), so "no children left but
    our clones" means "nothing of this job is left"; ``uid`` (when it is the job's own) is swept
    too, and then its keyrings are emptied (nothing of it runs to add a key again). Our clones
    (``_CLONES``: zygotes of their own, root, in their own sessions) are left alone; one that
    exited is reaped here like any child, and forgotten."""
    if uid is not None:
        kill_uid_once(uid)
    for _ in range(2000):
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            pid = None
        if pid:
            _CLONES.discard(pid)
            continue
        left = [c for c in _children() if c not in _CLONES] if pid == 0 else []
        if not left:
            if uid is not None:
                clear_keyrings_of(uid)
            return True
        if uid is not None:
            kill_uid_once(uid)
        for child in left:
            try:
                os.kill(child, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.0005)
    return False


def _children():
    me = os.getpid()
    try:
        with open(f"/proc/{me}/task/{me}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        pass
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/" + name + "/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if stat[stat.rfind(")") + 2:].split()[1] == str(me):
            found.append(int(name))
    return found


# ---------------------------------------------------------------- modes


def warm_plugins(names):
    """Import the plugin modules that installed distributions register as entry points in groups
    named after a preloaded top-level package (``<package>.*``): libraries import those on first
    use, which would otherwise be paid again in every child. Importing runs no library code
    paths beyond module bodies. Returns the number of plugin modules imported."""
    tops = {n.split(".")[0] for n in names}
    if not tops:
        return 0
    try:
        from importlib import metadata

        eps = metadata.entry_points()
    except Exception:
        return 0
    groups = eps.values() if isinstance(eps, dict) else [eps]
    wanted, group_names = set(), set()
    for group in groups:
        for ep in group:
            if ep.group.split(".")[0] in tops:
                group_names.add(ep.group)
                wanted.add(getattr(ep, "module", None) or ep.value.split(":")[0].strip())
    count = 0
    for module in sorted(wanted):
        try:
            __import__(module)
            count += 1
        except BaseException:
            pass
    cache = sys.modules.get("stevedore._cache")
    if cache is not None:  # stevedore's entry-point scan is cached in memory: fill it once here
        for group in sorted(group_names):
            try:
                cache.get_group_all(group)
            except BaseException:
                pass
    _warm_pkg_resources(group_names)
    return count


def _warm_pkg_resources(group_names):
    """``pkg_resources``' ``EntryPoint.load()`` (if a preload imported it) resolves the
    distribution's requirements on every call, parsing each requirement string of the dependency
    tree the first time: about 0.05 CPU-s per call, paid again in every child. The parsed
    requirements are cached per distribution, so resolve each entry point once here. Pure
    Python parsing of installed metadata: no thread, nothing a job could not compute itself."""
    pkg = sys.modules.get("pkg_resources")
    if pkg is None:
        return
    for group in sorted(group_names):
        try:
            eps = list(pkg.iter_entry_points(group))
        except BaseException:
            continue
        for ep in eps:
            try:
                ep.require()
            except BaseException:  # a plugin with a missing requirement fails in the job, as before
                pass


_PRELOAD_EXITS = []
_STDLIB_DIR = os.path.dirname(os.__file__)


def _record_exits(func, *args, **kwargs):
    _PRELOAD_EXITS.append((func, args, kwargs))
    return _ATEXIT_REGISTER(func, *args, **kwargs)


_ATEXIT_REGISTER = atexit.register


def _is_stdlib(func):
    code = getattr(func, "__code__", None)
    if code is not None:
        return code.co_filename.startswith(_STDLIB_DIR)
    module = getattr(func, "__module__", None) or ""
    return module.split(".")[0] in getattr(sys, "stdlib_module_names", ())


def _keep_stdlib_exits():
    """Drop the exit handlers the preloaded packages registered (cache and temp-file cleanup of
    a process about to vanish, ~7 ms per child here) but keep the standard library's (logging
    flush, multiprocessing); the program's own handlers, registered later, all run."""
    atexit._clear()
    for func, args, kwargs in _PRELOAD_EXITS:
        if _is_stdlib(func):
            atexit.register(func, *args, **kwargs)


#: how many preludes a zygote runs (``Job.prelude``)
MAX_PRELUDES = 8


def _run_prelude(text):
    """Run a job's prelude (the host's code, never a program's) here, in a namespace of its
    own, before forking: every later child inherits what it left. A failing one is ignored
    (the job does without it); the objects it made join the ones the children's collector
    leaves alone."""
    try:
        exec(compile(text, "<prelude>", "exec", dont_inherit=True), {"__name__": "__prelude__"})
    except BaseException:
        pass
    gc.collect()
    gc.freeze()


def zygote(control_fd, config):
    global _FS_PLAN
    sock = socket.socket(fileno=control_fd)
    if config.get("isolate_fs"):
        _FS_PLAN = fs_plan(config)  # before any preload can change sys.path
    preloaded, failed = [], {}
    atexit.register = _record_exits
    hidden = set(config.get("hide_packages", ()))
    for name in config.get("preload", []):
        if name.split(".")[0] in hidden:  # a forked child could read it all from memory
            failed[name] = "refused: the sandbox hides this package from its jobs"
            continue
        try:
            __import__(name)
            preloaded.append(name)
        except BaseException as e:  # a broken module must not kill the worker
            failed[name] = f"{type(e).__name__}: {_safe_str(e)}"
    if "numpy" in sys.modules:
        try:  # numpy >= 2 loads numpy.random lazily: have it here, not in every child
            __import__("numpy.random")
        except BaseException:
            pass
    plugins = warm_plugins(preloaded) if config.get("warm_entry_points", True) else 0
    if "numpy.random" in sys.modules:
        hook_numpy(sys.modules["numpy.random"])
    atexit.register = _ATEXIT_REGISTER
    net = "not requested"
    if config.get("unshare_net"):
        net = unshare_network()
    gc.collect()
    gc.freeze()  # the children's collector then leaves the pre-imported objects (and pages) alone
    huge = collapse_huge_pages() if config.get("huge_pages", True) else 0
    try:
        _prctl(PR_SET_CHILD_SUBREAPER, 1)
    except OSError:
        pass
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    info = {"preloaded": preloaded, "failed": failed, "net": net, "plugins": plugins,
            "huge_pages_mb": huge,
            "filesystem": "private" if _FS_PLAN is not None else "host",
            "python": sys.version.split()[0]}
    _serve(sock, info)


def _ready(sock, info):
    send_msg(sock, {"ready": os.getpid(), **info, "threads": len(os.listdir("/proc/self/task"))})


def _clone(sock, fd, info):
    """Fork a zygote of our own kind serving on ``fd`` (the host's new socket pair's end): it
    inherits the preloads, the preludes it ran and the filesystem plan (our pages,
    copy-on-write), and enters a network namespace of its own if we did. Its pid goes into
    ``_CLONES``: our cleanup leaves it alone."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            sock.close()
            _CLONES.clear()  # our parent's clones are not ours
            try:
                _prctl(PR_SET_CHILD_SUBREAPER, 1)  # fork clears it: its jobs' orphans stay below it
            except OSError:
                pass
            if info.get("net", "not requested") != "not requested":
                # abstract unix sockets and loopback ports live in the network namespace: in
                # ours, a job of one slot could reach a concurrent job of another
                info = {**info, "net": unshare_network()}
            new = socket.socket(fileno=fd)
            _serve(new, info)
        except BaseException:
            pass
        os._exit(0)
    os.close(fd)
    _CLONES.add(pid)
    send_msg(sock, {"cloned": pid})


def _reap_clones():
    """Reap the clones that have exited (their zombies otherwise wait for the next cleanup)."""
    for pid in list(_CLONES):
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            _CLONES.discard(pid)


def _leave():
    """Exit (the host closed our socket), first reaping the clones the host killed just before
    (a clone's zombie would otherwise pass to init, which may never reap it). A clone still
    serving lives on: it is the host's to close."""
    for _ in range(100):
        _reap_clones()
        if not _CLONES:
            break
        time.sleep(0.002)
    os._exit(0)


def _serve(sock, info):
    """Announce ourselves, then fork one job per message (or a clone of ourselves) until EOF."""
    _ready(sock, info)
    while True:
        try:
            spec, fds = recv_msg(sock, nfds=4)
        except EOFError:
            _leave()
        _reap_clones()
        if spec.get("clone"):
            if len(fds) != 1:
                for fd in fds:
                    os.close(fd)
                send_msg(sock, {"cloned": None, "error": f"expected one fd, got {len(fds)}"})
                continue
            try:
                _clone(sock, fds[0], info)
            except OSError as e:
                send_msg(sock, {"cloned": None, "error": f"{type(e).__name__}: {e}"})
            continue
        if spec.get("prelude"):
            _run_prelude(spec["prelude"])
        pid = os.fork()
        if pid == 0:
            try:
                sock.close()
                for i, fd in enumerate(fds):
                    os.dup2(fd, i if i < 3 else REPORT_FD)
                for fd in fds:
                    if fd > REPORT_FD:
                        os.close(fd)
                os.set_inheritable(REPORT_FD, False)
                _keep_stdlib_exits()
                enter_child(spec)
            except BaseException as e:
                _report({"setup_error": f"{type(e).__name__}: {_safe_str(e)}"})
                os._exit(126)
            run_program(spec)
            os._exit(0)
        for fd in fds:
            os.close(fd)
        send_msg(sock, {"started": pid})
        _watch(sock, pid, spec)
        _pid, status, ru = os.wait4(pid, 0)
        t_exit = time.monotonic()
        clean = cleanup(spec["uid"] if spec.get("sweep_uid") else None)
        send_msg(sock, {"exited": status, "clean": clean, "utime": ru.ru_utime, "stime": ru.ru_stime,
                        "maxrss_kb": ru.ru_maxrss,
                        "cleanup_s": time.monotonic() - t_exit})


def _watch(sock, pid, spec):
    """Wait for the job to end; if the evaluator goes away meanwhile, kill the job and leave."""
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        return  # no pidfd: a plain wait4 (the job's limits still bound it)
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    poller.register(sock.fileno(), select.POLLIN | select.POLLHUP)
    try:
        while True:
            fds = [fd for fd, _ in poller.poll()]
            if pidfd in fds:
                return
            if not sock.recv(1, socket.MSG_PEEK):
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
                os.wait4(pid, 0)
                cleanup(spec["uid"] if spec.get("sweep_uid") else None)
                _leave()
            time.sleep(0.01)  # the evaluator sends nothing mid-job; do not spin on stray bytes
    finally:
        os.close(pidfd)


def single(spec_path):
    with open(spec_path) as f:
        spec = json.load(f)
    try:
        if spec.get("unshare_net"):
            status = unshare_network()
            if status.startswith("unshare failed") and spec.get("require_net_isolation"):
                raise OSError(status)
        if spec.get("report_fd", REPORT_FD) != REPORT_FD:
            os.dup2(spec["report_fd"], REPORT_FD)
            os.close(spec["report_fd"])
        os.set_inheritable(REPORT_FD, False)
        enter_child(spec)
    except BaseException as e:
        _report({"setup_error": f"{type(e).__name__}: {_safe_str(e)}"})
        os._exit(126)
    run_program(spec)


def main(argv):
    mode = argv[1]
    if mode == "zygote":
        zygote(int(argv[2]), json.loads(argv[3]))
    elif mode == "single":
        single(argv[2])
    else:
        raise SystemExit("unknown mode " + mode)


if __name__ == "__main__":
    main(sys.argv)
