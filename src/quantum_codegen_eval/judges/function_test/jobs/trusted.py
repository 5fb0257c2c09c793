"""The trusted side: run the test against a proxy of the candidate: ``check(candidate)``, or each
named test function in order with the candidate's functions bound as the test's globals.

A job module: the judge ships it (with the codec) into a trusted sandbox job (the judge's own
code, the task's prompt and test; no completion code) with
``judges/_embed.job_source(trusted, "main", check_source, entry_point, tests, names, ...)``,
linked to the program's job (``Job.peer``): each call of the proxy goes to the program as a
``Q`` frame on stdout and its result comes back on stdin (:mod:`.frames`), rebuilt from a safe
serialisation, so the test meets one process of the program, as upstream's runner has it. The
outcome goes to ``__qce_trusted.json``.

Random seeds (``random``, ``numpy``'s legacy and ``default_rng(None)``, Aer's shots) are fixed.
Failures of the proxy itself (malformed or unsupported payloads, the program dying in a call)
are ``BaseException`` subclasses, so a test's ``except Exception`` cannot swallow them.
"""

import json
import os
import re
import sys
from pathlib import Path

from ...jobs import frames, simulator_seeds, wire, wire_qiskit
from ...jobs.memory import ran_out_of_memory
from . import random_state
from .codec import CODEC
from .task_values import with_classes

OUT_FILE = "__qce_trusted.json"
#: the program's files never become code in the check's process
_CODE_SUFFIXES = (".py", ".pyc", ".pyo", ".pyd", ".pyw", ".so", ".pth", ".dll", ".dylib")
#: the program's files, as one ``F`` frame
MAX_FILES_FRAME = 8 << 20


class ProxyFailure(BaseException):
    """The proxy cannot answer: reason is ``payload``, ``unsupported``, ``died`` or ``exit``."""

    def __init__(self, reason, message, index):
        super().__init__(message)
        self.reason, self.message, self.index = reason, message, index


class CandidateError(Exception):
    """An exception the candidate raised whose type is not a builtin one."""


def _seed():
    """The test's global random states, the same on every run (unseeded ``default_rng()``
    and module generators: the sandbox derives them from the run's seed; Aer's shots:
    :mod:`...jobs.simulator_seeds`)."""
    import random

    import numpy as np

    random.seed(1234)
    np.random.seed(1234)
    simulator_seeds.seed_aer("trusted")


def _exception(info):
    import builtins

    name = str(info.get("type", "Exception"))[:100]
    message = str(info.get("message", ""))[:4000]
    cls = getattr(builtins, name, None) if name.isidentifier() else None
    exc = None
    if isinstance(cls, type) and issubclass(cls, Exception):
        try:
            exc = cls(message)
        except Exception:
            exc = None
    if exc is None:
        exc = CandidateError(f"{name}: {message}")
    exc._qce_candidate = name
    # the program's call ran out of memory (a MemoryError in its exception's chain): data
    # that can only turn its own RE into MLE
    exc._qce_memory = info.get("memory") is True
    # where the program says it was raised: its claim, weighed with what this job checks itself
    exc._qce_raised = {"module": str(info.get("module", ""))[:200],
                       "site": str(info.get("site", ""))[:200]}
    return exc


#: exceptions that say the environment lacks an optional library or an IBM account
ENVIRONMENT_LACKS = ("MissingOptionalLibraryError", "AccountNotFoundError", "InvalidAccountError")


def environment_lacks(name, message):
    """Whether this environment really lacks what an exception named ``name`` with ``message``
    says is missing (checked here, in a process that ran no program code): qiskit's own test of
    the optional library it names, or no IBM account saved here."""
    try:
        if name == "MissingOptionalLibraryError":
            found = re.search(r"The '([^']{1,100})' library is required", message)
            if found is None:
                return False
            from qiskit.utils import optionals

            for attr in dir(optionals):
                dep = getattr(optionals, attr)
                if attr.startswith("HAS_") and getattr(dep, "_name", None) == found.group(1):
                    return not bool(dep)
            import importlib.util

            return importlib.util.find_spec(found.group(1)) is None
        if name in ("AccountNotFoundError", "InvalidAccountError"):
            from qiskit_ibm_runtime.accounts import AccountManager

            try:
                AccountManager.get()
            except Exception:
                return True
    except Exception:
        return False
    return False


def _apply_mutation(original, new):
    """Make ``original`` (an argument check() holds) equal to the candidate's mutated copy."""
    if isinstance(original, list) and isinstance(new, list):
        original[:] = new
    elif isinstance(original, dict) and isinstance(new, dict):
        original.clear()
        original.update(new)
    elif type(original).__name__ == "ndarray" and getattr(new, "shape", None) == original.shape:
        original[...] = new
    elif type(original).__name__ == "QuantumCircuit" and type(new) is type(original):
        original.__dict__.clear()
        original.__dict__.update(new.__dict__)
    else:
        return False
    return True


def _write_files(payload, written):
    """Write the program's files (an ``F`` frame) into this working dir, validated; remove the
    ones it wrote before that are gone (``written``: their names, updated)."""
    if len(payload) > MAX_FILES_FRAME:
        raise wire.WireError("files: too large")
    try:
        files = json.loads(payload)
    except (ValueError, RecursionError):
        raise wire.WireError("files: not JSON") from None
    if not isinstance(files, dict):
        raise wire.WireError("files: expected an object")
    for name, data in files.items():
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", str(name)) or \
                name.startswith("__qce") or not isinstance(data, str) or \
                name.lower().endswith(_CODE_SUFFIXES):
            raise wire.WireError(f"files: name {str(name)[:80]!r} not accepted")
        raw = wire.unb64(data, CODEC.limits)
        if name.endswith(".qpy"):
            wire_qiskit.check_qpy_header(raw, CODEC.limits)
        Path(name).write_bytes(raw)
    for name in written - set(files):
        Path(name).unlink(missing_ok=True)
    written.clear()
    written.update(files)


class Session:
    """The link to the program's job: a call out, its files and result back."""

    def __init__(self, link_in, link_out):
        self.link_in, self.link_out = link_in, link_out
        self.written = set()

    def turn(self, index, ends):
        """The program's next turn: its files (written here), then the frame that ends it
        (``ends``: ``L`` or ``C``, a :class:`frames.Frame`); ``None`` when the program ended
        first."""
        seen_files = False
        bound = CODEC.limits.bytes + 1024
        while True:
            try:
                got = frames.receive(self.link_in, (b"F", ends), bound)
                if got is not None and got.payload is None:
                    # a value over what the transport reads: received and counted here, so the
                    # size is this process's measure, not the program's word
                    raise ProxyFailure("limit", f"value of {got.size:,} bytes encoded, over the "
                                       f"{bound:,} the judge's transport reads (received and "
                                       "counted by the check)", index)
            except ValueError as exc:
                raise ProxyFailure("payload", f"malformed output: {exc}", index) from None
            except OSError:
                got = None
            if got is None or got.kind == ends:
                return got
            if seen_files:
                raise ProxyFailure("payload", "two file frames in one turn", index)
            seen_files = True
            try:
                _write_files(got.payload, self.written)
            except (wire.WireError, wire.UnsupportedValue) as exc:
                raise ProxyFailure("payload", f"the files the program wrote: {exc}",
                                   index) from None

    def ask(self, index, text):
        try:
            self.link_out.write(frames.pack(b"Q", text.encode()))
        except OSError:  # the program is gone
            raise ProxyFailure("died", "the program ended during this call", index) from None
        got = self.turn(index, b"C")
        if got is None:
            raise ProxyFailure("died", "the program ended during this call", index)
        return got.payload


class Proxy:
    """The candidate's functions as the check sees them: ``primary`` (the entry point) is called
    as ``proxy(...)``, any other name as ``proxy.call(name, args, kwargs)`` (its calls carry the
    name: ``fn``). With ``rng_continues``, a call made while the test drew no random number
    since the previous call starts from the program's own random state, else from the test's."""

    def __init__(self, codec, session, primary=None, rng_continues=False):
        self.codec, self.session = codec, session
        self.primary, self.rng_continues = primary, rng_continues
        self.index = 0
        self.last_rng = None

    def _answer(self, i, payload, args, kwargs):
        codec = self.codec
        try:
            if len(payload) > codec.limits.bytes:
                raise wire.WireError(f"{len(payload)} bytes is over {codec.limits.bytes}")
            try:
                rec = json.loads(payload)
            except (ValueError, RecursionError):
                raise wire.WireError("a call record that is not JSON") from None
            if not isinstance(rec, dict) or not isinstance(rec.get("ok"), bool):
                raise wire.WireError("a call record without 'ok'")
            mutated = rec.get("mutated") or []
            if not isinstance(mutated, list) or len(mutated) > len(args) + len(kwargs):
                raise wire.WireError("bad 'mutated' list")
            changes = []
            for slot in mutated:
                if not isinstance(slot, list) or len(slot) != 2:
                    raise wire.WireError("bad 'mutated' entry")
                changes.append((slot[0], codec.decode(slot[1])))
            value = codec.decode(rec.get("value")) if rec["ok"] else None
        except wire.TransportLimit as exc:
            raise ProxyFailure("limit", str(exc), i) from None
        except wire.UnsupportedValue as exc:
            raise ProxyFailure("unsupported", str(exc), i) from None
        except wire.WireError as exc:
            raise ProxyFailure("payload", str(exc), i) from None
        for key, new in changes:
            target = (args[key] if type(key) is int and 0 <= key < len(args)
                      else kwargs.get(key) if isinstance(key, str) else None)
            if target is None or not _apply_mutation(target, new):
                raise ProxyFailure("payload", f"cannot apply a change to argument {key!r}", i)
        if rec["ok"]:
            return value
        if "exit" in rec:
            raise ProxyFailure("exit", f"the program called sys.exit({rec['exit']})", i)
        info = rec.get("exc")
        if not isinstance(info, dict):
            raise ProxyFailure("payload", "a failed call record without 'exc'", i)
        raise _exception(info)

    def __call__(self, *args, **kwargs):
        return self.call(self.primary, args, kwargs)

    def call(self, name, args, kwargs):
        i = self.index
        self.index += 1
        rng = random_state.pack()  # equal states pack equal: did the test draw since?
        same = self.rng_continues and rng == self.last_rng
        self.last_rng = rng
        call = {"args": [self.codec.encode(a) for a in args],
                "kwargs": [[k, self.codec.encode(v)] for k, v in kwargs.items()],
                "rng": None if same else rng}
        if name != self.primary:
            call["fn"] = name
        text = json.dumps(call)
        if '"$": "unsupported"' in text:
            raise ProxyFailure("limit", "an argument check() passes that cannot be sent to the "
                               "program", i)
        return self._answer(i, self.session.ask(i, text), args, kwargs)


def main(check_source, entry_point, tests=None, names=(), classes=(), callbacks=False,
         rng_continues=False):
    """Run the test on a proxy of the candidate; the outcome to :data:`OUT_FILE`. ``tests``:
    ``None`` calls ``check(candidate)``; else the names of the test functions called in order,
    with ``entry_point`` and each of ``names`` bound to the candidate's function of that name.
    Instances of the test's ``classes`` (names) cross as data, and with ``callbacks`` so do the
    test's functions passed to the program (:mod:`.task_values`)."""
    # nothing of the test reads or writes the session (its prints go nowhere)
    fd_in, fd_out = frames.detach(0, 1)
    session = Session(os.fdopen(fd_in, "rb"), os.fdopen(fd_out, "wb", buffering=0))
    out = Path(OUT_FILE).resolve()

    def emit(outcome):
        out.write_text(json.dumps(outcome), encoding="utf-8")
        os._exit(0)

    # nothing in the working dir (where the program's files land) is importable here
    sys.path[:] = [p for p in sys.path if p not in ("", ".", os.getcwd())]
    try:  # the program's top level runs first, as upstream's runner has it
        loaded = session.turn(None, b"L")
    except ProxyFailure as exc:
        emit({"state": "done", "result": "proxy", "reason": exc.reason,
              "message": exc.message, "index": None})
    if loaded is None:
        emit({"state": "top_level"})
    const = loaded.payload.decode("utf-8", "replace") if loaded.size <= 200 else ""

    _seed()
    proxy = Proxy(CODEC, session, entry_point, rng_continues)

    def bind(name):
        def candidate(*args, **kwargs):
            return proxy.call(name, args, kwargs)

        candidate.__name__ = candidate.__qualname__ = name
        return candidate

    candidate = bind(entry_point)
    ns = {"__name__": "__qce_check__", "__builtins__": __builtins__}
    stage = "setup"  # where an exception not re-raised from the candidate comes from
    try:
        exec(compile(check_source, "<test>", "exec"), ns)
        proxy.codec = with_classes(CODEC, {n: ns.get(n) for n in classes},
                                   check_source if callbacks else None,
                                   call=proxy.call if callbacks else None)
        ns[entry_point] = candidate
        for name in names:
            if name != entry_point:
                ns[name] = bind(name)
        stage = "check"
        if tests is None:
            ns["check"](candidate)
        else:
            for name in tests:
                ns[name]()
        outcome = {"result": "pass"}
    except ProxyFailure as exc:
        outcome = {"result": "proxy", "reason": exc.reason, "message": exc.message,
                   "index": exc.index}
    except wire.IteratorLimit as exc:
        outcome = {"result": "proxy", "reason": "limit", "message": str(exc), "index": None}
    except BaseException as exc:
        name = getattr(exc, "_qce_candidate", None)
        try:
            message = str(exc)[:2000]
        except BaseException:
            message = "<unprintable>"
        outcome = {"result": "fail", "origin": "candidate" if name else stage,
                   "type": name or type(exc).__name__, "message": message,
                   "memory": getattr(exc, "_qce_memory", False) is True or ran_out_of_memory(exc)}
        if name:
            outcome["raised"] = getattr(exc, "_qce_raised", {})
            if name in ENVIRONMENT_LACKS:
                outcome["lacks"] = environment_lacks(name, message)
    emit({"state": "done", "calls": proxy.index, "const": const, **outcome})
