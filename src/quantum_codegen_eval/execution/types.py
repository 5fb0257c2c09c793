"""The typed boundary of the sandbox: :class:`Limits`, :class:`Job`, :class:`RunResult`.

>>> Limits(wall_time=2).cpu_seconds
2.0
>>> r = RunResult(id="a", status="ok", exit_code=0)
>>> RunResult.from_dict(r.to_dict()) == r
True
"""

from __future__ import annotations

import base64
import math
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

STATUSES = ("ok", "error", "timeout", "memory", "output_limit", "killed", "crashed")


@dataclass(frozen=True)
class Limits:
    """Per-run limits. ``cpu_time=None`` means the same as ``wall_time``.

    ``memory_mb`` bounds the address space (RLIMIT_AS) of the run's process, including what it
    inherits from the pre-imported worker; ``processes`` bounds the processes and threads of the
    sandbox user (RLIMIT_NPROC, enforced only for a non-root uid); ``output_bytes`` caps stdout and
    stderr each; ``file_size_mb`` caps any single file the program writes (RLIMIT_FSIZE).
    """

    wall_time: float = 10.0
    cpu_time: float | None = None
    memory_mb: int = 4096
    output_bytes: int = 1_000_000
    processes: int = 64
    file_size_mb: int = 64

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.name == "cpu_time":
                continue
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"Limits.{f.name} must be a positive number, got {value!r}")

    @property
    def cpu_seconds(self) -> float:
        return float(self.wall_time if self.cpu_time is None else self.cpu_time)

    def to_worker(self) -> dict[str, int]:
        """The rlimits the worker applies (integers, bytes and whole seconds)."""
        return {
            "cpu": max(1, math.ceil(self.cpu_seconds)),
            "as": int(self.memory_mb) * 1024 * 1024,
            "nproc": int(self.processes),
            "fsize": int(self.file_size_mb) * 1024 * 1024,
        }


@dataclass(frozen=True)
class Job:
    """One program to run. ``files`` are written into the fresh working dir before the run;
    ``collect`` names files read back from it afterwards (missing ones are left out).

    ``preload``: modules the forked worker imports before the job (``None``: the sandbox's);
    never name a module holding secrets for an untrusted job: a forked child can read all the
    worker's memory. ``env``: extra environment variables. ``trusted=False`` (the default: a
    completion, anything a model wrote) cannot read this package's installed files (judges,
    references, specs); ``trusted=True`` is for the judge's own code only (e.g. a check over
    the data an untrusted job produced): it is isolated the same way but may import this
    package. Both see only the interpreter, system libraries and their own working dir: data
    a job needs goes in ``files``. ``hash_seed``: the job's ``PYTHONHASHSEED`` and the seed
    of its ``random`` / NumPy global generators (``None``: the sandbox's ``hash_seed``).
    ``peer``: a job run at the same time as this one, linked to it: this job's stdout is the
    peer's stdin and the peer's stdout is this job's stdin (neither has ``stdin`` of its own;
    docs/sandbox.md, "Linked jobs"). ``prelude``: the host's own code
    (never a program's: it runs in the job's worker, outside any job's isolation) that the
    worker runs once, before it forks the job, in a namespace of its own; what it leaves in the
    worker (modules it registers in ``sys.modules``, say) every later job forked from that
    worker inherits. A job must work without it: a ``fresh=True`` sandbox runs none, a worker
    runs at most ``MAX_PRELUDES`` and ignores one that fails. Never a text holding a secret:
    every job the worker forks, untrusted ones too, can read what it left.
    """

    source: str
    id: str = ""
    stdin: str | bytes | None = None
    files: dict[str, str | bytes] = field(default_factory=dict)
    collect: tuple[str, ...] = ()
    python: str | None = None
    preload: tuple[str, ...] | None = None
    limits: Limits | None = None
    argv: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    trusted: bool = False
    hash_seed: int | None = None
    peer: Job | None = None
    prelude: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.source, str):
            raise TypeError(f"Job {self.id!r}: source must be str, got {type(self.source).__name__}")
        if self.peer is not None:
            self._check_peer(self.peer)
        for name in [*self.files, *self.collect]:
            parts = name.replace("\\", "/").split("/")
            if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts):
                raise ValueError(f"Job {self.id!r}: file name {name!r} must be a relative path "
                                 "inside the working dir")

    def _check_peer(self, peer: object) -> None:
        if not isinstance(peer, Job):
            raise ValueError(f"Job {self.id!r}: peer must be a Job, got {type(peer).__name__}")
        if peer.peer is not None:
            raise ValueError(f"Job {self.id!r}: its peer {peer.id!r} must not have a peer itself")
        for side in (self, peer):
            if side.stdin is not None:
                raise ValueError(f"Job {self.id!r}: linked job {side.id!r} must not set stdin "
                                 "(its stdin is the other side's stdout)")

    def with_id(self, id: str) -> Job:
        return replace(self, id=id)


@dataclass(frozen=True)
class ExceptionInfo:
    """The uncaught exception of a run: qualified type name, ``str(exc)`` and the traceback."""

    type: str
    message: str
    traceback: str


@dataclass
class RunResult:
    """What a run did. ``status`` is one of :data:`STATUSES`; ``peer``: the result of the
    job's linked peer (:attr:`Job.peer`), if it had one."""

    id: str
    status: str
    exit_code: int | None = None
    signal: int | None = None
    stdout: str = ""
    stderr: str = ""
    truncated: bool = False
    exception: ExceptionInfo | None = None
    wall_time: float = 0.0
    cpu_time: float = 0.0
    peak_memory_mb: float = 0.0
    files: dict[str, bytes] = field(default_factory=dict)
    peer: RunResult | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: collected files are base64 strings."""
        d = asdict(self)
        d["files"] = {k: base64.b64encode(v).decode("ascii") for k, v in self.files.items()}
        d["peer"] = None if self.peer is None else self.peer.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RunResult:
        d = dict(d)
        exc = d.get("exception")
        d["exception"] = ExceptionInfo(**exc) if exc else None
        d["files"] = {k: base64.b64decode(v) for k, v in (d.get("files") or {}).items()}
        d["peer"] = cls.from_dict(d["peer"]) if d.get("peer") else None
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})


class ExecutorError(RuntimeError):
    """The executor (a dask cluster, ...) could not run a job: a worker lost after the
    executor's own retries, a closed client. Never a program's result, so never a verdict."""


class InterpreterMissing(ExecutorError):
    """A job's interpreter does not exist on the worker that got it."""

    def __init__(self, python: str, worker: str):
        super().__init__(python, worker)
        self.python, self.worker = python, worker

    def __str__(self) -> str:
        return f"interpreter {self.python} is missing on worker {self.worker}"


class PackageMissing(ExecutorError):
    """A job's interpreter cannot import a package the job preloads: the machine is not set up
    for the job, so no job of that kind runs (its program would fail through no fault of its
    own). ``missing``: module -> the import error; ``own``: the interpreter is the one running
    the sandbox (``sys.executable`` there)."""

    def __init__(self, python: str, missing: dict[str, str], worker: str, own: bool):
        super().__init__(python, missing, worker, own)
        self.python, self.missing, self.worker, self.own = python, dict(missing), worker, own

    def __str__(self) -> str:
        names = ", ".join(repr(m) for m in self.missing)
        first = next(iter(self.missing.values()), "")
        return f"{self.python} on {self.worker} cannot import {names} ({first})"
