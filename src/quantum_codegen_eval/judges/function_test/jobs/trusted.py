"""The trusted side: run the test against a proxy of the candidate: ``check(candidate)``, or each
named test function in order with the candidate's functions bound as the test's globals.

A job module: the judge ships it (with the codec) into a trusted sandbox job (the judge's own
code, the task's prompt and test; no completion code) with
``judges/_embed.job_source(trusted, "main", check_source, entry_point, tests, names)``. The proxy answers the calls whose results the candidate's job already produced (``__qce_known.json``
lists each call's fingerprint: its arguments and the random state it starts from; ``__qce_results.bin`` holds the result frames), rebuilt
from safe serialisations. At the first call with no known result it records the arguments, then
keeps going *speculatively* to collect the next calls' arguments (an unknown result is a
stand-in: the candidate's own earlier result for the same arguments, else a placeholder whose
first use ends the speculation), so that one round of the candidate's job answers many calls.
The outcome goes to ``__qce_trusted.json``.

Random seeds (``random``, ``numpy``'s legacy and ``default_rng(None)``, Aer's shots) are fixed,
so a replay asks the same calls in the same order. Failures of the proxy itself (malformed or unsupported
payloads, the program dying in a call) are ``BaseException`` subclasses, so a test's
``except Exception`` cannot swallow them.
"""

import json
import os
import re
import sys
from pathlib import Path

from ...jobs import simulator_seeds, wire, wire_qiskit
from ...jobs.memory import ran_out_of_memory
from . import frames
from .codec import CODEC
from .task_values import with_classes

KNOWN_FILE = "__qce_known.json"
RESULTS_FILE = "__qce_results.bin"
OUT_FILE = "__qce_trusted.json"
#: the program's files never become code in the check's process
_CODE_SUFFIXES = (".py", ".pyc", ".pyo", ".pyd", ".pyw", ".so", ".pth", ".dll", ".dylib")
MAX_SPECULATED = 2000
MAX_SPECULATED_BYTES = 16 << 20


class ProxyFailure(BaseException):
    """The proxy cannot answer: reason is ``payload``, ``unsupported``, ``died`` or ``exit``."""

    def __init__(self, reason, message, index):
        super().__init__(message)
        self.reason, self.message, self.index = reason, message, index


class SpeculationEnd(BaseException):
    """A speculative run touched a result it does not have (or hit a limit)."""


class CandidateError(Exception):
    """An exception the candidate raised whose type is not a builtin one."""


class Pending:
    """Stands for an unknown result during speculation; any use ends the speculation."""

    __slots__ = ()

    def _end(self, *args, **kwargs):
        raise SpeculationEnd()

    __getattr__ = __call__ = __bool__ = __len__ = __iter__ = __getitem__ = __contains__ = _end
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = _end
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = _end
    __rtruediv__ = __floordiv__ = __mod__ = __pow__ = __neg__ = __abs__ = __float__ = _end
    __int__ = __index__ = __complex__ = __repr__ = __str__ = __format__ = __array__ = _end
    __matmul__ = __rmatmul__ = __and__ = __or__ = __xor__ = __round__ = _end


def _seed():
    """The test's global random states, the same in every replay (unseeded ``default_rng()``
    and module generators: the sandbox derives them from the run's seed; Aer's shots:
    :mod:`...jobs.simulator_seeds`)."""
    import random

    import numpy as np

    random.seed(1234)
    np.random.seed(1234)
    simulator_seeds.seed_aer("trusted")


def rng_state():
    """The global random states at a call (the candidate's job starts its call from them, as
    it would in the test's process; nothing flows back)."""
    import random

    import numpy as np

    return {"np": np.random.get_state(), "py": random.getstate()}


def rng_fingerprint():
    """A short digest of :func:`rng_state` (part of a call's identity: a call asked with the
    random state of a speculation is asked again when the replay reaches it in another state)."""
    import hashlib
    import random

    import numpy as np

    name, keys, pos, has_gauss, cached = np.random.get_state()
    digest = hashlib.sha256(keys.tobytes())
    digest.update(repr((name, pos, has_gauss, cached, random.getstate())).encode())
    return digest.hexdigest()[:32]


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


class Proxy:
    """The candidate's functions as the check sees them: ``primary`` (the entry point) is called
    as ``proxy(...)``, any other name as ``proxy.call(name, args, kwargs)`` (its calls carry the
    name: ``fn``)."""

    def __init__(self, codec, known, results, primary=None):
        self.codec, self.known, self.results = codec, known, results
        self.primary = primary
        self.index = 0
        self.need_from = None
        self.speculated, self.spec_bytes = [], 0
        self.used = 0

    def _answer(self, i, frame, args, kwargs):
        kind, payload = frame
        if kind == b"D":
            raise ProxyFailure("died", "the program ended during this call", i)
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
        # the function, the arguments and the random state the call starts from decide its result
        what = [list(args), sorted(kwargs.items())]
        fp = [self.codec.fingerprint(what if name == self.primary else [name, *what]),
              rng_fingerprint()]
        if self.need_from is None:
            if i < len(self.known) and i < len(self.results) and self.known[i] == fp:
                self.used = i + 1
                return self._answer(i, self.results[i], args, kwargs)
            self.need_from = i
        return self._speculate(i, fp, args, kwargs, name)

    def _speculate(self, i, fp, args, kwargs, name=None):
        call = {"fp": fp, "rng": self.codec.encode(rng_state()),
                "args": [self.codec.encode(a) for a in args],
                "kwargs": [[k, self.codec.encode(v)] for k, v in kwargs.items()]}
        if name != self.primary:
            call["fn"] = name
        text = json.dumps(call)
        if '"$": "unsupported"' in text:
            if i > self.need_from:  # e.g. a stand-in passed on as an argument: ask it later
                raise SpeculationEnd()
            self.need_from = None  # nothing to ask: the check ends here
            raise ProxyFailure("limit", "an argument check() passes that cannot be sent to the "
                               "program", i)
        size = len(text)
        if (len(self.speculated) >= MAX_SPECULATED
                or self.spec_bytes + size > MAX_SPECULATED_BYTES and self.speculated):
            raise SpeculationEnd()
        self.speculated.append(call)
        self.spec_bytes += size
        for j in range(min(self.need_from, len(self.results))):
            if self.known[j][0] == fp[0] and self.results[j][0] == b"C":  # same arguments
                return self._answer(j, self.results[j], args, kwargs)
        return Pending()


def main(check_source, entry_point, tests=None, names=(), classes=(), callbacks=False):
    """Run the test on a proxy of the candidate; the outcome to :data:`OUT_FILE`. ``tests``:
    ``None`` calls ``check(candidate)``; else the names of the test functions called in order,
    with ``entry_point`` and each of ``names`` bound to the candidate's function of that name.
    Instances of the test's ``classes`` (names) cross as data, and with ``callbacks`` so do the
    test's functions passed to the program (:mod:`.task_values`)."""
    known = json.loads(Path(KNOWN_FILE).read_text(encoding="utf-8"))
    got = frames.split(Path(RESULTS_FILE).read_bytes())
    results = [f for f in got if f[0] in (b"C", b"D")]
    files = [f for f in got if f[0] == b"F"]
    out = Path(OUT_FILE).resolve()

    def emit(outcome):
        out.write_text(json.dumps(outcome), encoding="utf-8")
        sys.stdout.flush()
        os._exit(0)

    # nothing in the working dir (where the program's files land) is importable here
    sys.path[:] = [p for p in sys.path if p not in ("", ".", os.getcwd())]
    if files:
        try:
            raw_files = files[-1][1]
            if len(raw_files) > 8 << 20:
                raise wire.WireError("files: too large")
            try:
                written = json.loads(raw_files)
            except (ValueError, RecursionError):
                raise wire.WireError("files: not JSON") from None
            if not isinstance(written, dict):
                raise wire.WireError("files: expected an object")
            for name, data in written.items():
                if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", str(name)) or \
                        name.startswith("__qce") or not isinstance(data, str) or \
                        name.lower().endswith(_CODE_SUFFIXES):
                    raise wire.WireError(f"files: name {str(name)[:80]!r} not accepted")
                raw = wire.unb64(data, CODEC.limits)
                if name.endswith(".qpy"):
                    wire_qiskit.check_qpy_header(raw, CODEC.limits)
                Path(name).write_bytes(raw)
        except (wire.WireError, wire.UnsupportedValue) as exc:
            emit({"state": "done", "result": "proxy", "reason": "payload",
                  "message": f"the files the program wrote: {exc}", "index": None})

    _seed()
    proxy = Proxy(CODEC, [c for c in known["fps"]], results, entry_point)

    def bind(name):
        def candidate(*args, **kwargs):
            return proxy.call(name, args, kwargs)

        candidate.__name__ = candidate.__qualname__ = name
        return candidate

    candidate = bind(entry_point)
    ns = {"__name__": "__qce_check__", "__builtins__": __builtins__}
    outcome = None
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
    except SpeculationEnd:
        pass
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
    if proxy.need_from is not None:
        emit({"state": "need", "from": proxy.need_from, "used": proxy.used,
              "calls": proxy.speculated})
    emit({"state": "done", "used": proxy.used, "calls": proxy.index, **outcome})

