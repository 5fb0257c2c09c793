"""The program the QCoder judge runs in the sandbox (as ``__main__``), kept as source text.

It loads the candidate with an import guard, calls ``solve`` once per test case (building the
oracle circuits the case needs), and writes each returned circuit to ``case_<i>.qpy`` (or the
returned value to ``case_<i>.json`` for classical problems) plus ``report.json``. Nothing it
writes is trusted as a verdict: the parent re-checks the circuits itself.
"""

HARNESS = r'''
import builtins, json, sys, traceback, time
CFG = json.load(open("qcoder_cases.json"))
ALLOWED = CFG["allowed_modules"]
ALLOWED_NAMES = set(CFG["allowed_names"])
LIB_NAMES = set(CFG["library_names"])
CAND = "__qcoder_candidate__"
VIOLATIONS = []
_real_import = builtins.__import__

def _module_ok(name):
    return name == "__future__" or any(name == m or name.startswith(m + ".") for m in ALLOWED)

def _guard(name, globals=None, locals=None, fromlist=(), level=0):
    # the caller's frame, not the (forgeable) globals argument, says who is importing
    if sys._getframe(1).f_globals.get("__name__") == CAND or (globals or {}).get("__name__") == CAND:
        bad = None
        if level:
            bad = "relative import"
        elif fromlist and not _module_ok(name):
            lib = name == "qiskit.circuit.library"
            for f in fromlist:
                if not (name + "." + f in ALLOWED_NAMES or (lib and f in LIB_NAMES)):
                    bad = "from " + name + " import " + f
                    break
        elif not fromlist and not _module_ok(name):
            bad = "import " + name
        if bad:
            VIOLATIONS.append(bad)
            raise ImportError("module not permitted: " + bad)
    return _real_import(name, globals, locals, fromlist, level)

REPORT = {"load_error": None, "cases": [], "import_violations": VIOLATIONS}

def _write():
    with open("report.json", "w") as fh:
        json.dump(REPORT, fh)

from qiskit import QuantumCircuit, qpy
from qiskit.circuit import Gate

def _x_pattern(qc, bits, n):
    for q in range(n):
        if not (bits >> q) & 1:
            qc.x(q)

def _oracle(desc):
    kind, n = desc["type"], desc["n"]
    if kind == "bitflip":
        d = QuantumCircuit(n + 1)
        for x in desc["marked"]:
            d.mcx(list(range(n)), n, ctrl_state=x)
        g = Gate("qcoder_oracle", n + 1, [])
        g.definition = d
        qc = QuantumCircuit(n + 1)
        qc.append(g, range(n + 1))
        return qc
    if kind == "phase":
        d = QuantumCircuit(n)
        for x in desc["marked"]:
            _x_pattern(d, x, n)
            if n == 1:
                d.z(0)
            else:
                d.mcp(3.141592653589793, list(range(n - 1)), n - 1)
            _x_pattern(d, x, n)
        g = Gate("qcoder_oracle", n, [])
        g.definition = d
        qc = QuantumCircuit(n)
        qc.append(g, range(n))
        return qc
    if kind == "grover":
        V = QuantumCircuit(n)
        for name, *args in desc["V"]:
            getattr(V, name)(*args)
        def U():
            d = QuantumCircuit(n)
            d.ry(desc["alpha"], 0)
            d.compose(V, inplace=True)
            g = Gate("qcoder_U", n, [])
            g.definition = d
            qc = QuantumCircuit(n)
            qc.append(g, range(n))
            return qc
        def R(theta):
            d = QuantumCircuit(n)
            d.compose(V.inverse(), inplace=True)
            _x_pattern(d, 0, n)
            if n == 1:
                d.p(theta, 0)
            else:
                d.mcp(theta, list(range(n - 1)), n - 1)
            _x_pattern(d, 0, n)
            d.compose(V, inplace=True)
            g = Gate("qcoder_R", n, [float(theta)])
            g.definition = d
            qc = QuantumCircuit(n)
            qc.append(g, range(n))
            return qc
        return U, R
    raise ValueError(kind)

def main():
    import os
    src = open("candidate.py", encoding="utf-8").read()
    for name in ("qcoder_cases.json", "candidate.py"):
        os.remove(name)
    builtins.__import__ = _guard
    g = {"__name__": CAND, "__builtins__": builtins}
    try:
        exec(compile(src, "candidate.py", "exec"), g)
    except BaseException:
        REPORT["load_error"] = traceback.format_exc(limit=-4)
        return
    solve = g.get("solve")
    if not callable(solve):
        REPORT["load_error"] = "the code does not define a function solve()"
        return
    for i, case in enumerate(CFG["cases"]):
        args = []
        for name in CFG["args"]:
            if name in case["oracles"]:
                args.append(_oracle(case["oracles"][name]))
            elif name in case["pair"]:
                args.append(_oracle(case["pair"][name][0])[case["pair"][name][1]])
            else:
                args.append(case["args"][name])
        t0 = time.perf_counter()
        entry = {"i": i, "status": "ok", "error": None}
        REPORT["cases"].append(entry)
        try:
            out = solve(*args)
        except BaseException:
            entry.update(status="RE", error=traceback.format_exc(limit=-4))
            break
        finally:
            entry["seconds"] = time.perf_counter() - t0
        if CFG["classical"]:
            try:
                with open("case_%d.json" % i, "w") as fh:
                    json.dump(out, fh)
            except (TypeError, ValueError) as exc:
                entry.update(status="RE", error="the returned value is not a list/int: %s" % exc)
                break
            continue
        if not isinstance(out, QuantumCircuit):
            entry.update(status="RE", error="solve() returned %s, not a QuantumCircuit"
                         % type(out).__name__)
            break
        try:
            with open("case_%d.qpy" % i, "wb") as fh:
                qpy.dump(out, fh)
        except BaseException as exc:
            entry.update(status="RE", error="the circuit cannot be serialised (QPY): %r" % exc)
            break
        _write()

try:
    main()
finally:
    builtins.__import__ = _real_import
    _write()
'''
