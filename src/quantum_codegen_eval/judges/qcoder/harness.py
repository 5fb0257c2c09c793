"""The program the QCoder judge runs in the (untrusted) sandbox, kept as source text.

It imports nothing of this package: it gets the candidate, the case arguments and the oracles'
*public* descriptions (a gate name, a width, a parameter count) in ``qcoder_cases.json``, and
writes data only: ``case_<i>.qpy`` (or ``.json`` for classical problems, or ``.circ.json`` when
QPY cannot carry the circuit), ``report.json`` and the UME channel ``ume.log``.

The UME guard (see docs/benchmarks/qcoder.md, "UME at run time"):

* an audit hook (``sys.addaudithook``; Python code cannot remove one) is installed before the
  candidate is compiled. While candidate code is on the stack it refuses imports outside the
  rules, ``exec``/``compile`` of code, frame/``gc``/``ctypes`` introspection, writing files,
  processes and sockets, by raising inside the event (the operation does not happen);
* ``builtins.__import__`` is wrapped too, for modules that are already loaded (no audit event);
* every refusal is appended to ``ume.log`` *before* the program gets control back, through a
  descriptor opened before the load (``O_APPEND``: nothing written can be taken back). The hook
  checks that the descriptor still is that file (``fstat``) and kills the run with exit code 86
  when it is not; the harness ends the file with ``END``. Lines the program adds itself can only
  add violations or repeat ``END``: forging never helps.

Everything the harness and its hook keep lives in one function's closure, reachable only through
frames or ``gc``, which the hook refuses to the candidate.
"""

#: exit code of a run whose UME channel was tampered with
TAMPER_EXIT = 86

#: the JSON circuit tree writer (read back by ``transport``), also used by the tests
ENCODER = r'''
from qiskit.circuit import ControlledGate as _CG, Gate as _G, Instruction as _I
from qiskit.circuit.annotated_operation import AnnotatedOperation as _AO


def enc_circ(c, level):
    if level > 64:
        raise ValueError("definitions nested too deeply")
    ops = [[enc_op(inst.operation, level + 1), [c.find_bit(q).index for q in inst.qubits]]
           for inst in c.data]
    return {"n": c.num_qubits, "c": c.num_clbits, "phase": float(c.global_phase), "ops": ops}

def enc_op(op, level):
    k = getattr(op, "base_class", type(op))
    for base in k.__mro__:  # a class of the program's own travels as its Qiskit ancestor
        if str(getattr(base, "__module__", "")).startswith("qiskit."):
            k = base
            break
    d = {"cls": k.__name__, "name": op.name, "n": op.num_qubits,
         "c": getattr(op, "num_clbits", 0)}
    try:
        d["params"] = [float(p) for p in op.params]
    except (TypeError, ValueError):
        d["params"] = []
    # what QPY drops (an MCXVChain's dirty_ancillas, relative_phase): the read-back differs
    flags = [f for f in ("dirty_ancillas", "relative_phase", "action_only")
             if getattr(op, "_" + f, False) is True]
    if flags:
        d["flags"] = flags
    if isinstance(op, _AO):
        mods = []
        for m in op.modifiers:
            k = type(m).__name__
            mods.append(["inv"] if k == "InverseModifier" else
                        ["ctrl", m.num_ctrl_qubits, m.ctrl_state] if k == "ControlModifier" else
                        ["pow", float(m.power)] if k == "PowerModifier" else [k])
        d.update(base=enc_op(op.base_op, level + 1), mods=mods)
    elif isinstance(op, _CG):
        d.update(nc=op.num_ctrl_qubits, state=op.ctrl_state)
        if type(op) is _CG:
            d["base"] = enc_op(op.base_gate, level + 1)
    elif k in (_G, _I) and op.definition is not None:
        d["def"] = enc_circ(op.definition, level + 1)
    return d
'''

HARNESS = ENCODER + r'''
def _qcoder_harness():
    import builtins, json, os, sys, time, traceback
    from qiskit import QuantumCircuit, qpy
    from qiskit.circuit import Gate
    import qiskit.circuit.library  # noqa: F401 - loaded before the guard (lazy imports)

    cfg = json.load(open("qcoder_cases.json"))
    src = open("candidate.py", encoding="utf-8").read()
    for name in ("qcoder_cases.json", "candidate.py"):
        os.remove(name)
    ALLOWED = tuple(cfg["allowed_modules"])
    ALLOWED_NAMES = frozenset(cfg["allowed_names"])
    LIB_NAMES = frozenset(cfg["library_names"])
    # modules a library may not load on the candidate's behalf either
    # (the harmful calls of the others are audited events, refused below)
    DANGEROUS = frozenset(("ctypes", "_ctypes", "subprocess", "_posixsubprocess", "socket",
                           "_socket", "multiprocessing", "_multiprocessing", "pty", "runpy"))
    CAND = "<qcoder-candidate>"
    # library code that generates code from validated identifiers only (namedtuple, dataclasses,
    # scipy.stats' argument parsers and result bunches): may compile while the program runs
    COMPILERS = ("/collections/__init__.py", "/dataclasses.py",
                 "/scipy/stats/_distn_infrastructure.py", "/scipy/_lib/_bunch.py")
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
    import _thread
    w, fstat, exit_, getframe = os.write, os.fstat, os._exit, sys._getframe
    get_ident = _thread.get_ident
    isinstance_, str_, len_, repr_, any_ = isinstance, str, len, repr, any
    WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT
    chan = os.open("ume.log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
    ident = (fstat(chan).st_dev, fstat(chan).st_ino)
    def emit(line):
        data = (line.replace("\n", " ")[:500] + "\n").encode("utf-8", "replace")
        try:
            st = fstat(chan)
            # the same file, and the line written whole (a read-only descriptor of the same
            # file dup2-ed over the channel passes fstat but cannot be written)
            ok = (st.st_dev, st.st_ino) == ident and w(chan, data) == len_(data)
        except OSError:
            ok = False
        if not ok:
            try:
                w(2, b"qcoder harness: the UME channel was tampered with\n")
            finally:
                exit_(86)

    def module_ok(name):
        return name == "__future__" or any_(name == m or name.startswith(m + ".") for m in ALLOWED)

    def make_hook(guard_code):
      # the hook's state (busy) lives only in this closure: nothing reachable from the guard,
      # builtins or any global leads here
      busy = set()  # threads inside the hook (its own frame walks raise events)

      def machinery(fn):
          return fn.startswith("<frozen importlib") or "/importlib/" in fn

      def who():
          """(nearest caller outside the import machinery: 'cand' | 'lib', candidate code anywhere
          on the stack, the event comes straight from the import machinery)"""
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
              if fn == CAND:
                  anywhere = True
                  if nearest is None:
                      nearest = "cand"
              elif nearest is None and not (machinery(fn) or co in guard_code):
                  nearest = "lib"
              f = f.f_back
          return nearest or "lib", anywhere, first, loading, origin

      def refuse(what):
          emit("UME " + what)
          raise PermissionError("not permitted here: " + what)

      def hook(event, args):
          me = get_ident()
          if me in busy:
              return
          if not (event == "import" or event == "open" or event.startswith(BLOCK_ANY)):
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
              if mod.partition(".")[0] in DANGEROUS:
                  refuse("import " + mod + " (by a library, on the program's behalf)")
              return
          if first:
              return  # the import machinery or the import guard: the import itself is judged
          if event == "open":
              mode = args[1] if len_(args) > 1 else "r"
              flags = args[2] if len_(args) > 2 else 0
              if (isinstance_(mode, str_) and any_(c in mode for c in "wax+")) or (
                      isinstance_(flags, int) and flags & WRITE_FLAGS):
                  refuse("open(" + repr_(args[0])[:100] + ", " + repr_(mode) + ") for writing")
              return
          if event in ("exec", "compile") and loading is None and not origin.endswith(COMPILERS):
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

    def guard(name, globals=None, locals=None, fromlist=(), level=0):
        caller = getframe(1).f_code.co_filename
        if caller == CAND:
            bad = None
            if level:
                bad = "relative import"
            elif fromlist and not module_ok(name):
                lib = name == "qiskit.circuit.library"
                for f in fromlist:
                    if not (name + "." + f in ALLOWED_NAMES or (lib and f in LIB_NAMES)):
                        bad = "from " + name + " import " + f
                        break
            elif not fromlist and not module_ok(name):
                bad = "import " + name
            if bad:
                emit("UME " + bad)
                raise ImportError("module not permitted: " + bad)
        mod = real_import(name, globals, locals, fromlist, level)
        if caller == CAND and fromlist and module_ok(name):
            # a permitted module may hold others (``from numpy.<private> import os``) or
            # functions that import or fetch by name (``from scipy._lib... import import_module``)
            for f in fromlist:
                v = getattr(mod, f, None) if isinstance_(f, str_) else None
                vmod = getattr(v, "__module__", None)
                if ((isinstance_(v, ModuleType) and not module_ok(v.__name__))
                        or any_(v is d for d in DANGEROUS_FUNCS)
                        or (isinstance_(vmod, str_) and vmod.partition(".")[0] in ESCAPES)):
                    emit("UME from " + name + " import " + f)
                    raise ImportError("module not permitted: from " + name + " import " + f)
        return mod

    sys.addaudithook(make_hook((guard.__code__,)))
    real_import = builtins.__import__
    import importlib, types
    ModuleType = types.ModuleType
    DANGEROUS_FUNCS = (importlib.import_module, importlib.reload, real_import, exec, eval,
                       compile, getattr, setattr, delattr, globals, vars, locals, breakpoint)
    ESCAPES = frozenset(("importlib", "operator", "functools", "pydoc", "timeit", "pickle",
                         "marshal", "runpy", "pkgutil", "code", "codeop", "inspect", "gc",
                         "ctypes", "os", "posix", "sys", "subprocess", "shutil", "socket",
                         "unittest", "pytest", "copyreg", "string"))
    report = {"load_error": None, "cases": []}

    def write_report():
        with open("report.json", "w") as fh:
            json.dump(report, fh)

    def oracle(desc):
        name, k, n_par = desc["gate"], desc["qubits"], desc["params"]

        def build(*params):
            if len(params) != n_par:
                raise TypeError("%s takes %d argument(s)" % (desc["arg"], n_par))
            ps = [float(p) for p in params]
            # the oracle is opaque: its definition holds the oracle gate again (same name), so
            # that reusing the definition (``definition``, ``decompose()``, ``to_gate()``) is a
            # use of the oracle the trusted stage counts; ORACLE_LEVELS deep, then an empty
            # placeholder (Qiskit's inverse()/control() walk definitions to the bottom)
            body = QuantumCircuit(k)
            for _ in range(ORACLE_LEVELS):
                g = Gate(name, k, ps)
                g.definition = body
                body = QuantumCircuit(k)
                body.append(g, range(k))
            return body
        return build if desc["factory"] else build()

    def dump(i, out):
        import io
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
        room = min(cfg["max_file_bytes"], budget[0])
        if readable and len(data) <= room:
            put("case_%d.qpy" % i, data)
            return "qpy"
        # QPY cannot carry it, or it is over the judge's size limits (a 10-qubit UnitaryGate is
        # 16 MB of QPY): the tree (a block travels as its class name only, which is all the
        # checker needs to refuse it)
        tree = enc_circ(out, 0)
        data = json.dumps(tree).encode()
        if len(data) <= room:
            put("case_%d.circ.json" % i, data)
            return "json"
        # still over: what can be checked without the standard gates (the blocks and
        # non-gates, the banned gate); the trusted stage decides UGE from it, or names the limit
        data = json.dumps(skeleton(tree)).encode()
        if len(data) <= room:
            put("case_%d.skel.json" % i, data)
            return "skeleton"
        raise JudgeLimit("the circuit of this test exceeds the judge's output limits (%d MB per "
                         "test, %d MB for all tests together) even without its standard gates"
                         % (cfg["max_file_bytes"] >> 20, cfg["max_output_bytes"] >> 20))

    STANDARD = frozenset(cfg["library_names"]) - frozenset(cfg["banned_gates"])

    def skeleton(tree):
        """``tree`` without the standard gates (and without emptied custom gates)."""
        ops = []
        for op, qubits in tree["ops"]:
            if op["cls"] in STANDARD and "def" not in op and "base" not in op:
                continue
            if "def" in op:
                op = dict(op, **{"def": skeleton(op["def"])})
                if not op["def"]["ops"]:
                    continue
            ops.append([op, qubits])
        return dict(tree, ops=ops)

    class JudgeLimit(Exception):
        """A limit of the judge's, not the program's fault."""

    import numpy

    def plain(o):
        """numpy integers are integers (a list of ``np.int64`` is a list of ints)."""
        if isinstance_(o, numpy.integer):
            return int(o)
        raise TypeError("Object of type %s is not JSON serializable" % type(o).__name__)

    ORACLE_LEVELS = 4
    budget = [cfg["max_output_bytes"]]

    def put(name, data):
        """Write one output within the judge's limits: per file, and for all tests together
        (the evaluator holds them)."""
        if len(data) > min(cfg["max_file_bytes"], budget[0]):
            raise JudgeLimit("the output of this test (%d bytes) exceeds the judge's limits (%d MB "
                             "per test, %d MB for all tests together)" % (
                                 len(data), cfg["max_file_bytes"] >> 20,
                                 cfg["max_output_bytes"] >> 20))
        budget[0] -= len(data)
        with open(name, "wb") as fh:
            fh.write(data)

    def main():
        builtins.__import__ = guard
        g = {"__name__": "__qcoder_candidate__", "__builtins__": builtins}
        try:
            code = compile(src, CAND, "exec")
            exec(code, g)
        except BaseException:
            report["load_error"] = traceback.format_exc(limit=-4)
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
            except BaseException:
                entry.update(status="RE", error=traceback.format_exc(limit=-4))
                break
            finally:
                entry["seconds"] = time.perf_counter() - t0
            if cfg["classical"]:
                try:
                    put("case_%d.json" % i, json.dumps(out, default=plain).encode())
                except (TypeError, ValueError, RecursionError) as exc:
                    entry.update(status="RE", error="the returned value is not a list/int: %s" % exc)
                    break
                except JudgeLimit as exc:
                    entry.update(status="limit", error=str(exc))
                write_report()
                continue
            if not isinstance(out, QuantumCircuit):
                entry.update(status="RE", error="solve() returned %s, not a QuantumCircuit"
                             % type(out).__name__)
                break
            try:
                entry["transport"] = dump(i, out)
            except JudgeLimit as exc:
                entry.update(status="limit", error=str(exc))
                write_report()
                continue
            except BaseException as exc:
                entry.update(status="RE", error="the circuit cannot be serialised (QPY): %r" % exc)
                break
            write_report()  # what is known so far survives a process that is ended

    try:
        main()
    finally:
        builtins.__import__ = real_import
        write_report()
        emit("END")
        os.close(chan)


_qcoder_harness()
del _qcoder_harness
'''
