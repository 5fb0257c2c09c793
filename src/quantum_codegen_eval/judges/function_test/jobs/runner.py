"""The untrusted side: run the candidate's program, then call its functions on the given inputs.

A job module: the judge ships it (with the codec) into the sandbox job that runs the completion
with ``judges/_embed.job_source(runner, "main", program, entry_point)``, linked to the check's
job: the calls come on stdin, the results go to stdout, frame by frame (see :mod:`judges.jobs.frames`),
one call at a time in this one process, as upstream's test calls the program. It holds no test, no expected value and no verdict: whatever the program
does in this process, it can only change the data it returns.
"""

import json
import os
import stat
from pathlib import Path

from ...jobs import frames, simulator_seeds, wire
from ...jobs.memory import ran_out_of_memory
from . import random_state
from .codec import CODEC
from .task_values import program_function, with_classes

PROGRAM_FILE = "__qce_program.py"
#: files the program leaves in its working dir travel to the check (a test may read one)
MAX_FILES, MAX_FILE_BYTES, MAX_FILES_BYTES = 16, 1 << 20, 4 << 20
#: a call the check sends (its own data)
MAX_ASK_BYTES = 1 << 30


def _mutable(value):
    return type(value).__name__ in ("list", "dict", "ndarray", "QuantumCircuit")


def _record(fn, call, name="function", codec=CODEC):
    """Run one call; (record, stop). The record is the return value or the exception."""
    if fn is None:  # a function the test calls that the program does not define
        return {"ok": False, "exc": {"type": "NameError", "module": "builtins",
                                     "message": f"name {name!r} is not defined",
                                     "site": "__main__"}}, False
    args = [codec.decode(a) for a in call["args"]]
    kwargs = {k: codec.decode(v) for k, v in call["kwargs"]}
    if call.get("rng"):  # start from the test's global random states, as in one process
        random_state.restore(call["rng"])
    slots = list(enumerate(args)) + list(kwargs.items())
    before = {k: codec.fingerprint(v) for k, v in slots if _mutable(v)}
    try:
        rec = {"ok": True, "value": codec.encode(fn(*args, **kwargs))}
    except SystemExit as exc:
        return {"ok": False, "exit": repr(exc.code)[:200]}, True
    except BaseException as exc:  # the candidate's exception is data too
        try:
            message = str(exc)[:4000]
        except BaseException:
            message = "<unprintable>"
        rec = {"ok": False, "exc": {"type": type(exc).__name__,
                                    "module": str(type(exc).__module__), "message": message,
                                    "site": _raise_site(exc),
                                    "memory": ran_out_of_memory(exc)}}
    rec["mutated"] = [[k, codec.encode(v)] for k, v in slots
                      if k in before and codec.fingerprint(v) != before[k]]
    return rec, False


def _constant_report(fn):
    """``{"const": value}`` (JSON) when ``fn`` is a Python function whose body only returns a
    constant (``pass``, ``return True``, a docstring, comments), else empty. The program's own
    report: the judge compares it with the prompt's stub, so it can only count against it."""
    import dis

    try:
        ops = [(i.opname, i.argval) for i in dis.get_instructions(fn)
               if i.opname not in ("RESUME", "NOP", "CACHE")]
        if [op for op, _ in ops] not in (["RETURN_CONST"], ["LOAD_CONST", "RETURN_VALUE"]):
            return b""
        value = ops[0][1]
        if value is None or type(value) in (bool, int, float, str):
            return json.dumps({"const": value})[:200].encode()
    except Exception:
        pass
    return b""


def _raise_site(exc):
    """The module whose code raised ``exc`` (its innermost frame; ``__main__``: the program)."""
    try:
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        return str(tb.tb_frame.f_globals.get("__name__", ""))[:200] if tb is not None else ""
    except BaseException:
        return ""


def _listing():
    """The program's files in its working dir that may travel: ``(name, size, mtime)``."""
    out = []
    for name in sorted(os.listdir("."))[:256]:
        if not name.startswith("__qce"):
            try:
                st = os.stat(name)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                out.append((name, st.st_size, st.st_mtime_ns))
    return out


def _files(listing):
    """The files of ``listing`` that fit the bounds, base64 by name."""
    out, total = {}, 0
    for name, size, _ in listing:
        if size > MAX_FILE_BYTES or total + size > MAX_FILES_BYTES or len(out) >= MAX_FILES:
            continue
        out[name] = wire.b64(Path(name).read_bytes())
        total += size
    return out


def main(program, entry_point, classes=(), callbacks=False):
    """Run ``program``, then answer the check's calls (``Q`` frames on stdin) until it ends:
    each calls the program's function named by the call's ``fn`` (by default ``entry_point``);
    instances of the program's ``classes`` (names) cross as data, and with ``callbacks`` the
    test's functions passed as arguments are rebuilt here (:mod:`.task_values`)."""
    # the program reads nothing of the session and nothing reads its stdout: a correct
    # function that prints in each of many calls must not reach the sandbox's output limit
    fd_in, fd_out = frames.detach(0, 1)
    link_in, link_out = os.fdopen(fd_in, "rb"), os.fdopen(fd_out, "wb", buffering=0)
    sent = []

    def frame(kind, payload=b""):
        link_out.write(frames.pack(kind, payload))

    def files():
        nonlocal sent
        now = _listing()
        if now != sent:
            sent = now
            frame(b"F", json.dumps(_files(now)).encode())

    simulator_seeds.seed_aer("candidate")
    # a real file, as upstream's program is: __file__, inspect.getsource and tracebacks work
    path = os.path.abspath(PROGRAM_FILE)
    Path(path).write_text(program, encoding="utf-8")
    ns = {"__name__": "__main__", "__builtins__": __builtins__, "__file__": path}
    exec(compile(program, path, "exec"), ns)
    if entry_point not in ns:
        raise NameError(f"name {entry_point!r} is not defined")
    files()
    frame(b"L", _constant_report(ns[entry_point]))
    codec = with_classes(CODEC, {n: ns.get(n) for n in classes},
                         program=ns if callbacks else None)
    while True:
        ask = frames.read(link_in, (b"Q",), MAX_ASK_BYTES)
        if ask is None:  # the check ended
            break
        call = json.loads(ask[1])
        name = call.get("fn") or entry_point
        rec, stop = _record(program_function(codec, ns, name), call, name, codec)
        files()
        frame(b"C", json.dumps(rec).encode())
        if stop:
            break
    link_out.close()
