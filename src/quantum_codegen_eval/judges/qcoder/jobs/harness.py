"""The program the QCoder judge runs in the untrusted sandbox: ``main()`` (shipped by
``judges._embed.job_source``).

It imports nothing of the judge: it gets the candidate (``candidate.py``), the case arguments
and the oracles' *public* descriptions (a gate name, a width, a parameter count) in
``qcoder_cases.json``, and writes data only. Each test's output goes on the link to the trusted
check (its stdout; the job is the check's peer, ``judges/jobs/frames.py``): QPY, the JSON
circuit tree when QPY cannot carry the circuit or is over what the check keeps, or a classical
answer's JSON; whatever its size (the check counts what it receives). ``report.json`` and the
UME channel ``ume.log`` are its files. The program's own stdout goes to ``/dev/null``.

The UME guard (see docs/benchmarks/qcoder.md, "UME at run time"):

* an audit hook (``sys.addaudithook``; Python code cannot remove one) is installed before the
  candidate is compiled. While candidate code is on the stack it refuses imports outside the
  rules, ``exec``/``compile`` of code, frame/``gc``/``ctypes`` introspection, writing files,
  processes and sockets, by raising inside the event (the operation does not happen);
* ``builtins.__import__`` is wrapped too, for modules that are already loaded (no audit event);
* every refusal is appended to ``ume.log`` *before* the program gets control back, through a
  descriptor opened before the load (``O_APPEND``: nothing written can be taken back; each line
  starts on a line of its own, so text the program wrote there cannot swallow it). The writer
  checks that the descriptor still is that file (``fstat``) and kills the run with
  :data:`TAMPER_EXIT` when it is not; the harness ends the file with ``END``. Lines the program
  adds itself can only add violations or repeat ``END``: forging never helps.

The program can reach this module (``sys.modules``) and the import guard (it is
``builtins.__import__``), so neither holds what the hook relies on. The hook and the writer it
calls are built by factories from their arguments: their state lives in cells of their own,
reachable only through the hook object (which Python does not hand out) or frames and ``gc``
(refused to the candidate), and they read no global name at run time (a test checks it), so
patching this module, or the cells of the guard's closure, changes nothing they do. The guard
has its own writer and rule copies: a program that rewires them only unguards imports of
modules already loaded, never a refusal of the hook.
"""

#: exit code of a run whose UME channel was tampered with
TAMPER_EXIT = 86
CASES = "qcoder_cases.json"
CANDIDATE = "candidate.py"
CHANNEL = "ume.log"
#: each refusal is also written to the job's stderr with this prefix: a pipe whose other end
#: the sandbox holds, so a program can add lines there but never remove one (the file
#: channel lives in its working directory: code running without a frame of the program, a
#: library callable it planted, could truncate it)
STDERR_UME = "qcoder-harness UME "
REPORT = "report.json"
#: a classical answer's integer over this many bits crosses as ``{BIG_INT: hex digits}``: JSON
#: writes integers in decimal, which Python caps at 4300 digits (a valid answer may be larger)
BIG_INT, BIG_INT_BITS = "$hexint", 12_000
#: the candidate's code object file name (how the guard knows the program's frames)
CAND = "<qcoder-candidate>"
#: modules a library may not load on the candidate's behalf either
#: (the harmful calls of the others are audited events, refused by the hook)
DANGEROUS = frozenset(("ctypes", "_ctypes", "subprocess", "_posixsubprocess", "socket",
                       "_socket", "multiprocessing", "_multiprocessing", "pty", "runpy"))
#: library code that generates code from validated identifiers only (namedtuple, dataclasses,
#: scipy.stats' argument parsers and result bunches): may compile while the program runs
COMPILERS = ("/collections/__init__.py", "/dataclasses.py",
             "/scipy/stats/_distn_infrastructure.py", "/scipy/_lib/_bunch.py")
#: audit events refused whenever candidate code is on the stack
BLOCK_ANY = ("ctypes.", "os.system", "os.exec", "os.spawn", "os.posix_spawn", "os.fork",
             "os.kill", "os.killpg", "os.putenv", "os.unsetenv", "os.remove", "os.rename",
             "os.truncate", "os.chmod", "os.chown", "os.link", "os.symlink", "os.rmdir",
             "os.mkdir", "os.chdir", "os.startfile", "os.setxattr", "os.removexattr",
             "os.utime", "subprocess.", "socket.", "shutil.", "mmap.", "fcntl.", "gc.",
             "sys._getframe", "sys._current_frames", "sys._current_exceptions",
             "sys.addaudithook", "sys.settrace", "sys.setprofile", "sys.monitoring",
             "sys.set_asyncgen_hooks", "object.__getattr__", "code.__new__",
             "function.__new__", "marshal.", "pickle.", "cpython.", "resource.", "signal.",
             "sys.unraisablehook", "sys.excepthook", "exec", "compile")
#: modules whose functions, imported from a permitted package, import or fetch by name
ESCAPES = frozenset(("importlib", "operator", "functools", "pydoc", "timeit", "pickle",
                     "marshal", "runpy", "pkgutil", "code", "codeop", "inspect", "gc",
                     "ctypes", "os", "posix", "sys", "subprocess", "shutil", "socket",
                     "unittest", "pytest", "copyreg", "string"))
#: how deep the opaque oracle's definition nests the oracle gate again
ORACLE_LEVELS = 4


def channel_writer(chan, ident, write, fstat, exit_, len_, os_error, tamper_exit):
    """``emit(line)``: append one line to the UME channel ``chan`` (whose ``(st_dev, st_ino)``
    is ``ident``), or end the process with ``tamper_exit`` when it is no longer that file.
    Everything it uses is an argument (``os_error``: ``OSError``), none a global name."""

    def emit(line):
        # a line of its own: text the program appended without a newline cannot swallow it
        data = ("\n" + line.replace("\n", " ")[:500] + "\n").encode("utf-8", "replace")
        try:
            st = fstat(chan)
            # the same file, and the line written whole (a read-only descriptor of the same
            # file dup2-ed over the channel passes fstat but cannot be written)
            ok = (st.st_dev, st.st_ino) == ident and write(chan, data) == len_(data)
        except os_error:
            ok = False
        if not ok:
            try:
                write(2, b"qcoder harness: the UME channel was tampered with\n")
            finally:
                exit_(tamper_exit)

    return emit


def mirrored(primary, mirror, prefix):
    """``emit(line)``: ``primary(line)``, and a refusal (``UME ...``) to ``mirror`` too."""

    def emit(line):
        primary(line)
        if line.startswith("UME "):
            mirror(prefix + line[4:])

    return emit


def module_rule(allowed, any_):
    """``module_ok(name)``: ``name`` is a permitted module (or inside one)."""

    def module_ok(name):
        return name == "__future__" or any_(name == m or name.startswith(m + ".")
                                            for m in allowed)

    return module_ok


def audit_hook(emit, module_ok, guard_code, getframe, get_ident, write_flags, builtins_):
    """The audit hook: refuses (and records through ``emit``) what candidate code may not do.
    ``write_flags``: the ``os.open`` flags that write; ``builtins_``: ``(isinstance, str, int,
    len, repr, any, PermissionError)`` as they were before the load."""
    isinstance_, str_, int_, len_, repr_, any_, permission_error = builtins_
    cand, block_any, dangerous, compilers = CAND, BLOCK_ANY, DANGEROUS, COMPILERS
    busy = set()  # threads inside the hook (its own frame walks raise events)

    def machinery(fn):
        return fn.startswith("<frozen importlib") or "/importlib/" in fn

    def who():
        """(nearest caller outside the import machinery: 'cand' | 'lib', candidate code anywhere
        on the stack, the event comes straight from the import machinery, the module being
        imported, the file of the event's origin)"""
        f = getframe(2)
        origin = f.f_code.co_filename
        nearest, anywhere, loading = None, False, None
        first = machinery(f.f_code.co_filename) or f.f_code in guard_code
        while f is not None:
            co = f.f_code
            fn = co.co_filename
            # the import in progress, unless the program's code runs inside it (then the
            # program, not the import, is what the event serves)
            if (loading is None and not anywhere and co.co_name == "_find_and_load"
                    and machinery(fn)):
                loading = f.f_locals.get("name")
            if fn == cand:
                anywhere = True
                if nearest is None:
                    nearest = "cand"
            elif nearest is None and not (machinery(fn) or co in guard_code):
                nearest = "lib"
            f = f.f_back
        return nearest or "lib", anywhere, first, loading, origin

    def refuse(what):
        emit("UME " + what)
        raise permission_error("not permitted here: " + what)

    def hook(event, args):
        me = get_ident()
        if me in busy:
            return
        if not (event == "import" or event == "open" or event.startswith(block_any)):
            return
        busy.add(me)
        try:
            nearest, anywhere, first, loading, origin = who()
        finally:
            busy.discard(me)
        if not anywhere:
            return
        if event == "import" or (event == "exec" and first and isinstance_(loading, str_)):
            # a module is loaded (the C import, or importlib's Python path: its exec)
            mod = args[0] if event == "import" and isinstance_(args[0], str_) else loading
            mod = mod if isinstance_(mod, str_) else repr_(mod)
            if nearest == "cand" and not module_ok(mod):
                refuse("import " + mod)
            if mod.partition(".")[0] in dangerous:
                refuse("import " + mod + " (by a library, on the program's behalf)")
            return
        if first:
            return  # the import machinery or the import guard: the import itself is judged
        if event == "open":
            mode = args[1] if len_(args) > 1 else "r"
            flags = args[2] if len_(args) > 2 else 0
            if (isinstance_(mode, str_) and any_(c in mode for c in "wax+")) or (
                    isinstance_(flags, int_) and flags & write_flags):
                refuse("open(" + repr_(args[0])[:100] + ", " + repr_(mode) + ") for writing")
            return
        if event in ("os.putenv", "os.unsetenv") and isinstance_(loading, str_):
            # a library's module body setting its own defaults while the program imports it
            # (threadpoolctl's ``KMP_DUPLICATE_LIB_OK``, reached by ``from scipy import signal``):
            # fixed values of the library's, which the contest's judge never saw as a use
            return
        if event in ("exec", "compile") and loading is None and not origin.endswith(compilers):
            # a library evaluating code while the program runs, outside any import: the
            # program's strings (``typing.get_type_hints`` on string annotations, f2py's eval)
            refuse(event + " of code by a library, on the program's behalf")
        if event in ("exec", "compile", "object.__getattr__", "sys._getframe"):
            # also reached by libraries for their own purposes: only the program's own calls
            if nearest == "cand":
                refuse(event + (" of code (dynamic code execution)"
                                if event in ("exec", "compile") else ""))
            return
        refuse(event)

    return hook


def import_guard(emit, module_ok, getframe, real_import, allowed_names, lib_names,
                 dangerous_funcs, module_type, builtins_):
    """The ``builtins.__import__`` wrapper: the rules for modules that are already loaded (no
    audit event), and for what a permitted module hands out (``from numpy.<private> import
    os``). ``builtins_``: ``(isinstance, str, any, getattr)`` as they were before the load."""
    isinstance_, str_, any_, getattr_ = builtins_
    cand, escapes = CAND, ESCAPES

    def guard(name, globals=None, locals=None, fromlist=(), level=0):
        caller = getframe(1).f_code.co_filename
        if caller == cand:
            bad = None
            if level:
                bad = "relative import"
            elif fromlist and not module_ok(name):
                lib = name == "qiskit.circuit.library"
                for f in fromlist:
                    if not (name + "." + f in allowed_names or (lib and f in lib_names)):
                        bad = "from " + name + " import " + f
                        break
            elif not fromlist and not module_ok(name):
                bad = "import " + name
            if bad:
                emit("UME " + bad)
                raise ImportError("module not permitted: " + bad)
        mod = real_import(name, globals, locals, fromlist, level)
        if caller == cand and fromlist and module_ok(name):
            # a permitted module may hold others (``from numpy.<private> import os``) or
            # functions that import or fetch by name (``from scipy._lib... import import_module``)
            for f in fromlist:
                v = getattr_(mod, f, None) if isinstance_(f, str_) else None
                vmod = getattr_(v, "__module__", None)
                if ((isinstance_(v, module_type) and not module_ok(v.__name__))
                        or any_(v is d for d in dangerous_funcs)
                        or (isinstance_(vmod, str_) and vmod.partition(".")[0] in escapes)):
                    emit("UME from " + name + " import " + f)
                    raise ImportError("module not permitted: from " + name + " import " + f)
        return mod

    return guard


def main():
    """Load the candidate under the guard, run ``solve`` on every case, write what it returned."""
    import _thread
    import builtins
    import importlib
    import io
    import json
    import os
    import sys
    import time
    import traceback
    import types

    import numpy
    import qiskit.circuit.library  # noqa: F401 - loaded before the guard (lazy imports)
    from qiskit import QuantumCircuit, qpy
    from qiskit.circuit import Gate

    from ...jobs import frames
    from ...jobs.memory import ran_out_of_memory
    from . import circuit_tree

    enc_circ, pack = circuit_tree.enc_circ, frames.pack
    with open(CASES) as fh:
        cfg = json.load(fh)
    with open(CANDIDATE, encoding="utf-8") as fh:
        src = fh.read()
    for name in (CASES, CANDIDATE):
        os.remove(name)
    cand, oracle_levels, report_file = CAND, ORACLE_LEVELS, REPORT
    chan = os.open(CHANNEL, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
    ident = (os.fstat(chan).st_dev, os.fstat(chan).st_ino)
    allowed = tuple(cfg["allowed_modules"])

    # the link to the trusted check is stdout; the program's prints go nowhere
    (link,) = frames.detach(1)
    err = os.dup(2)  # the stderr pipe: the sandbox reads it, the program cannot unwrite it
    err_ident = (os.fstat(err).st_dev, os.fstat(err).st_ino)

    def writer():
        return mirrored(
            channel_writer(chan, ident, os.write, os.fstat, os._exit, len, OSError,
                           TAMPER_EXIT),
            channel_writer(err, err_ident, os.write, os.fstat, os._exit, len, OSError,
                           TAMPER_EXIT),
            STDERR_UME)

    emit = writer()  # the harness's own (END)
    real_import = builtins.__import__
    # the guard and the hook each get their own writer and rule: the guard is reachable
    guard = import_guard(
        writer(), module_rule(allowed, any), sys._getframe, real_import,
        frozenset(cfg["allowed_names"]), frozenset(cfg["library_names"]),
        (importlib.import_module, importlib.reload, real_import, exec, eval, compile, getattr,
         setattr, delattr, globals, vars, locals, breakpoint),
        types.ModuleType, (isinstance, str, any, getattr))
    sys.addaudithook(audit_hook(
        writer(), module_rule(allowed, any), (guard.__code__,), sys._getframe, _thread.get_ident,
        os.O_WRONLY | os.O_RDWR | os.O_CREAT,
        (isinstance, str, int, len, repr, any, PermissionError)))
    report = {"load_error": None, "cases": []}

    def write_report():
        with open(report_file, "w") as fh:
            json.dump(report, fh)

    def oracle(desc):
        name, k, n_par = desc["gate"], desc["qubits"], desc["params"]

        def build(*params):
            if len(params) != n_par:
                raise TypeError(f"{desc['arg']} takes {n_par} argument(s)")
            ps = [float(p) for p in params]
            # the oracle is opaque: its definition holds the oracle gate again (same name), so
            # that reusing the definition (``definition``, ``decompose()``, ``to_gate()``) is a
            # use of the oracle the trusted stage counts; ``oracle_levels`` deep, then an empty
            # placeholder (Qiskit's inverse()/control() walk definitions to the bottom)
            body = QuantumCircuit(k)
            for _ in range(oracle_levels):
                g = Gate(name, k, ps)
                g.definition = body
                body = QuantumCircuit(k)
                body.append(g, range(k))
            return body
        return build if desc["factory"] else build()

    # what send() writes with, bound before the load (a program that patches this module's
    # globals changes nothing; one that writes on the link itself only sends data the check
    # decodes, as if it had returned it)
    write_, len_, max_case = os.write, len, cfg["max_case_bytes"]

    def send(i, transport, data):
        """Test ``i``'s output to the check: ``H`` (the test, the transport), then ``D``."""
        head = json.dumps({"i": i, "transport": transport}).encode()
        view = memoryview(pack(b"H", head) + pack(b"D", data))
        while len_(view):
            view = view[write_(link, view):]

    def dump(i, out):
        buf = io.BytesIO()
        qpy.dump(out, buf)
        data = buf.getvalue()
        # read every circuit back: what Qiskit cannot read (CUGate(...).control(1), definitions
        # nested past its recursion limit) goes as the JSON tree, or is the program's RE when
        # that cannot carry it either; so the trusted stage never meets an unreadable QPY file
        # that the program did not tamper with
        try:
            back = qpy.load(io.BytesIO(data))[0]
            readable = len(back.data) == len(out.data)
        except Exception:
            readable = False
        if readable:
            # QPY also reads back some circuits as different ones (an MCXVChain with dirty
            # ancillas comes back clean): the trees must agree
            try:
                readable = enc_circ(back, 0) == enc_circ(out, 0)
            except ValueError:
                pass  # nested deeper than the tree carries: QPY read it back, QPY it is
        if readable and len_(data) <= max_case:
            send(i, "qpy", data)
            return "qpy"
        # QPY cannot carry it, or it is over what the check keeps (a 10-qubit UnitaryGate is
        # 16 MB of QPY): the tree (a block travels as its class name only, which is all the
        # checker needs to refuse it); a tree over the bound too is sent all the same, the
        # check counts it and names its own limit
        send(i, "json", json.dumps(enc_circ(out, 0)).encode())
        return "json"

    np_ints = frozenset(t for t in set(numpy.sctypeDict.values())
                        if issubclass(t, numpy.integer))
    int_, float_, str_, list_, tuple_ = int, float, str, list, tuple

    def plain(o, depth=0):
        """``o`` as exact built-in values, read without running any method of the program's
        (a subclass of ``int``/``str``/``list``... is read through the built-in type's own slot;
        its dunders may be library callables that would run here with no frame of the program
        on the stack); numpy's own integer types are integers."""
        t = type(o)
        if t is int_ and o.bit_length() > BIG_INT_BITS:  # str() of it is capped (and quadratic)
            return {BIG_INT: format(o, "x")}
        if o is None or t is bool or t is int_ or t is float_ or t is str_:
            return o
        if depth > 64:
            raise ValueError("nested too deeply")
        if t in np_ints:
            return plain(int_(o), depth)
        if issubclass(t, bool):
            return bool(int_.__int__(o))
        if issubclass(t, int_):
            return plain(int_.__int__(o), depth)
        if issubclass(t, float_):
            return float_.__float__(o)
        if issubclass(t, str_):
            return str_.__str__(o)
        if issubclass(t, list_):
            return [plain(x, depth + 1) for x in list_.copy(o)]
        if issubclass(t, tuple_):
            return [plain(x, depth + 1) for x in tuple_.__getnewargs__(o)[0]]
        raise TypeError(f"Object of type {t.__name__} is not JSON serializable")

    def run():
        builtins.__import__ = guard
        g = {"__name__": "__qcoder_candidate__", "__builtins__": builtins}
        try:
            code = compile(src, cand, "exec")
            exec(code, g)
        except BaseException as exc:
            report["load_error"] = traceback.format_exc(limit=-4)
            report["load_memory"] = ran_out_of_memory(exc)
            return
        solve = g.get("solve")
        if not callable(solve):
            report["load_error"] = "the code does not define a function solve()"
            return
        for i, case in enumerate(cfg["cases"]):
            args = []
            for name in cfg["args"]:
                if name in case["oracles"]:
                    args.append(oracle(case["oracles"][name]))
                else:
                    args.append(case["args"][name])
            t0 = time.perf_counter()
            entry = {"i": i, "status": "ok", "error": None}
            report["cases"].append(entry)
            try:
                out = solve(*args)
            except BaseException as exc:
                entry.update(status="RE", error=traceback.format_exc(limit=-4),
                             memory=ran_out_of_memory(exc))
                break
            finally:
                entry["seconds"] = time.perf_counter() - t0
            if cfg["classical"]:
                try:
                    data = json.dumps(plain(out)).encode()
                except (TypeError, ValueError, RecursionError) as exc:
                    entry.update(status="RE", error=f"the returned value is not a list/int: {exc}")
                    break
                try:
                    send(i, "json", data)
                except OSError as exc:  # the check stopped reading (it ended)
                    entry.update(status="unsent", error=repr(exc))
                    break
                entry["transport"] = "json"
                write_report()
                continue
            if not isinstance(out, QuantumCircuit):
                entry.update(status="RE", error=f"solve() returned {type(out).__name__}, not a "
                             "QuantumCircuit")
                break
            try:
                entry["transport"] = dump(i, out)
            except OSError as exc:  # the check stopped reading (it ended)
                entry.update(status="unsent", error=repr(exc))
                break
            except BaseException as exc:
                entry.update(status="RE", error=f"the circuit cannot be serialised (QPY): {exc!r}",
                             memory=ran_out_of_memory(exc))
                break
            write_report()  # what is known so far survives a process that is ended

    try:
        run()
    finally:
        builtins.__import__ = real_import
        os.close(link)  # the check reads the end of the link
        write_report()
        emit("END")
        os.close(chan)
