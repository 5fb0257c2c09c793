"""The two programs the QHack judge runs in the sandbox, as source text.

* :func:`program_source`: the untrusted job. It loads the program parts (harness and solution),
  runs one public test (``run(input)``, or 2022's driver with the input as stdin) and writes the
  raw output as tagged JSON (:mod:`.payload`) to :data:`RESULT_FILE`. For a ``live`` challenge it
  also runs the official ``check()`` there, with the program's own output in place of the expected
  one; for a ``circuit`` challenge it emits the solution's circuit as its output instead
  (:mod:`.circuits`), or records the calls of the solution's functions next to its output
  (:mod:`.record`). It never sees an expected output.
* :func:`trusted_source`: the trusted job (``Job.trusted``; same era interpreter). Its source is
  the payload decoder, the harness's imports and a ``check()`` (the official one, or the judge's
  trusted part of it); it reads the outputs and expected values from :data:`CHECK_FILE` and writes
  one outcome per test to :data:`CHECKED_FILE`. No code of the completion is in it.
"""

from __future__ import annotations

from .. import _embed
from .jobs import payload

RESULT_FILE = "qce_result.json"
JOB_FILE = "qce_job.json"
CHECK_FILE = "qce_check.json"
CHECKED_FILE = "qce_checked.json"
#: the wire codec's modules, then the names these programs use
PAYLOAD_SOURCE = (_embed.modules_source(payload)
                  + f"from {payload.__name__} import PayloadError, decode, encode\n")

_PROGRAM_MAIN = r'''
def _qce_main():
    import contextlib, io, json, os, sys, traceback
    dumps, fdopen, _encode, _PayloadError = json.dumps, os.fdopen, encode, PayloadError
    with open("qce_job.json") as fh:
        spec = json.load(fh)
    os.remove("qce_job.json")
    seed = spec.get("seed", 0)
    _seed_all(seed)  # the harness's draws (and the program's) come from the judge's seed
    out_fd = os.open("qce_result.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    result = {}

    def err(phase, exc):
        frames = [[f.filename, f.lineno, f.name] for f in traceback.extract_tb(exc.__traceback__)]
        return {"phase": phase, "type": type(exc).__name__, "module": type(exc).__module__,
                "message": str(exc)[:4000], "frames": frames[-40:],
                "traceback": "".join(traceback.format_exception(
                    type(exc), exc, exc.__traceback__))[-8000:]}

    def save():
        with fdopen(out_fd, "w") as fh:
            fh.seek(0)
            fh.truncate()
            fh.write(dumps(result))

    g = {"__name__": "__main__", "__builtins__": __builtins__}
    try:
        for label, src in spec["parts"]:
            exec(compile(src, label, "exec"), g)
    except BaseException as exc:
        result["error"] = err("load", exc)
        return save()

    if spec["format"] == "script":
        sys.stdin = io.StringIO(spec["input"])
        buf = io.StringIO()
        try:
            with contextlib.redirect_stdout(buf):
                exec(compile(spec["driver"], "<qhack-driver>", "exec"), g)
        except SystemExit as exc:
            if exc.code not in (None, 0):
                result["error"] = err("driver", exc)
        except BaseException as exc:
            result["error"] = err("driver", exc)
        result["stdout"] = buf.getvalue()[-200000:]
        return save()

    run, check = g["run"], g["check"]
    rec = None
    if spec.get("record"):  # a recorded-replay check: recorders on the solution functions
        try:
            rec = {"__name__": "qce_record", "encode": _encode}
            exec(compile(spec["record"], "<qhack-record>", "exec"), rec)
            rec["install"](g)
            _seed_all(seed)
        except BaseException as exc:
            result["error"] = err("load", exc)
            return save()
    try:
        # skip_run: run() would hand the solution a hidden oracle (only the emitted circuit counts)
        out = None if spec.get("skip_run") else run(spec["input"])
    except BaseException as exc:
        result["error"] = err("run", exc)
        return save()
    if spec.get("emit"):  # a circuit check: the data is the circuit the solution builds
        try:
            ns = {"__name__": "qce_emit", "encode": _encode}
            exec(compile(spec["emit"], "<qhack-emit>", "exec"), ns)
            out = ns["emit"](g)
        except BaseException as exc:
            result["error"] = err("check", exc)
            return save()
    try:
        result["output"] = _encode(out)
    except _PayloadError as exc:
        result["output_error"] = str(exc)[:200]
    except RecursionError:
        result["output_error"] = "output too deeply nested"
    if spec.get("live_check"):
        try:
            _seed_all(seed + 1)
            msg = check(out, out)
            result["check"] = {"passed": not msg, "message": "" if not msg else str(msg)[:4000]}
        except AssertionError as exc:
            result["check"] = {"passed": False, "message": str(exc)[:4000]}
        except BaseException as exc:
            result["error"] = err("check", exc)
            return save()
    if rec is not None:
        try:
            result["record"] = rec["collect"](g)
        except BaseException as exc:
            result["error"] = err("check", exc)
    return save()


_qce_main()
'''

_TRUSTED_MAIN = r'''
def _qce_trusted_main():
    import json, traceback
    with open("qce_check.json") as fh:
        spec = json.load(fh)
    ns = {"__name__": "__main__", "_qce_decode": decode}
    _seed_all(spec.get("seed", 0))  # draws made while the harness loads
    exec(compile(_QCE_HARNESS, "<qhack-trusted-check>", "exec"), ns)
    outcomes = []
    for t in spec["tests"]:
        ns["TEST_INPUT"] = t.get("input")
        ns["TEST_SEED"], ns["HIDDEN_SEED"] = t.get("seed", 0), t.get("hidden_seed", 0)
        _seed_all(t.get("seed", 0) + 1)  # the check's own draws (oracles, couplings, shots)
        try:
            out = t["output"] if t.get("raw") else decode(t["output"])
            msg = ns["check"](out, t["expected"])
            outcomes.append({"passed": not msg, "message": "" if not msg else str(msg)[:2000]})
        except AssertionError as exc:
            outcomes.append({"passed": False, "message": str(exc)[:2000] or "check() failed"})
        except Exception as exc:
            outcomes.append({"passed": False, "raised": True,
                             "message": f"{type(exc).__name__}: {str(exc)[:1500]}",
                             "traceback": traceback.format_exc()[-3000:]})
    with open("qce_checked.json", "w") as fh:
        json.dump({"outcomes": outcomes}, fh)


_qce_trusted_main()
'''


_SEED_ALL = r'''
def _seed_all(seed):
    import random
    import numpy
    random.seed(seed)
    numpy.random.seed(seed)
'''


def program_source() -> str:
    """The untrusted job's source (the program parts come in :data:`JOB_FILE`)."""
    return PAYLOAD_SOURCE + "\n\n" + _SEED_ALL + "\n\n" + _PROGRAM_MAIN


def trusted_source(imports: str, check: str) -> str:
    """The trusted job's source: decoder, ``imports`` and ``check`` (judge-chosen text only)."""
    # the harness and check get their own namespace: their names (a solution stand-in called
    # `decode`, say) never shadow the decoder's
    harness = imports.rstrip() + "\n\n\n" + check.rstrip() + "\n"
    return (PAYLOAD_SOURCE + "\n\n" + _SEED_ALL + f"\n\n_QCE_HARNESS = {harness!r}\n"
            + _TRUSTED_MAIN)


def compare_check(rule: dict) -> str:
    """A ``check()`` that is the record's plain ``allclose``/``isclose`` rule."""
    return ("def check(solution_output, expected_output):\n"
            "    assert np.all(np.{func}(json.loads(solution_output), json.loads(expected_output),"
            " rtol={rtol!r}, atol={atol!r})), 'output not within tolerance of the expected "
            "value'\n").format(func=rule["func"], rtol=float(rule["rtol"]),
                               atol=float(rule["atol"]))
