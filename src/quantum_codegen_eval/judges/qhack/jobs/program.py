"""The untrusted job: the program parts (harness and solution) loaded, one public test run, the
raw output written as tagged JSON to ``qce_result.json``.

Its spec (``qce_job.json``, deleted once read) names the parts, the format (2022's ``script``:
the driver runs with the input as stdin), the test's input and seed (``earlier``: the inputs of
the public tests before it, whose ``run()`` goes first), and what the judge needs besides the
output: the circuit the solution builds (``emit``, :mod:`.circuit_emit`), the calls
of its functions while the official ``run()`` and ``check()`` run (``record``, :mod:`.recorder`),
or the official ``check()`` run here on the program's own output (``live_check``). It never sees
an expected output.
"""

import builtins
import json
import os

from . import circuit_emit, payload, recorder, shims
from .driver import error_record, run_driver
from .seeding import seed_all

JOB_FILE = "qce_job.json"
RESULT_FILE = "qce_result.json"


def main():
    dumps, fdopen, encode, payload_error = json.dumps, os.fdopen, payload.encode, \
        payload.PayloadError
    with open(JOB_FILE) as fh:
        spec = json.load(fh)
    os.remove(JOB_FILE)
    seed = spec.get("seed", 0)
    seed_all(seed)  # the harness's draws (and the program's) come from the judge's seed
    out_fd = os.open(RESULT_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    result = {}

    def save():
        with fdopen(out_fd, "w") as fh:
            fh.seek(0)
            fh.truncate()
            fh.write(dumps(result))

    g = {"__name__": "__main__", "__builtins__": builtins}
    try:
        if spec.get("shims"):  # env="current": the rewritten harness calls the shims' helpers
            shims.install()
            g.update(shims.helpers())
        for label, src in spec["parts"]:
            exec(compile(src, label, "exec"), g)
    except BaseException as exc:
        result["error"] = error_record("load", exc)
        return save()

    if spec["format"] == "script":
        result.update(run_driver(spec["driver"], spec["input"], g))
        return save()

    run, check = g["run"], g["check"]
    try:  # the public tests before this one (record ``earlier_tests``), unrecorded
        for earlier in spec.get("earlier", ()):
            try:
                run(earlier)
            except Exception:  # the contest's loop printed it and went on
                pass
    except BaseException as exc:
        result["error"] = error_record("run", exc)
        return save()
    rec = None
    if spec.get("record"):  # a recorded-replay check: recorders on the solution functions
        try:
            rec = recorder.Recorder(spec["record"])
            rec.install(g)
            seed_all(seed)
        except BaseException as exc:
            result["error"] = error_record("load", exc)
            return save()
    try:
        out = run(spec["input"])
    except BaseException as exc:
        result["error"] = error_record("run", exc)
        return save()
    if spec.get("emit"):  # a circuit check: the data is the circuit the solution builds
        try:
            out = circuit_emit.emit(g, spec["emit"])
        except BaseException as exc:
            result["error"] = error_record("check", exc)
            return save()
    try:
        result["output"] = encode(out)
    except payload_error as exc:
        result["output_error"] = str(exc)[:200]
    except RecursionError:
        result["output_error"] = "output too deeply nested"
    if spec.get("live_check"):
        try:
            seed_all(seed + 1)
            msg = check(out, out)
            result["check"] = {"passed": not msg, "message": "" if not msg else str(msg)[:4000]}
        except AssertionError as exc:
            result["check"] = {"passed": False, "message": str(exc)[:4000]}
        except BaseException as exc:
            result["error"] = error_record("check", exc)
            return save()
    if rec is not None:
        try:
            result["record"] = rec.collect(g)
        except BaseException as exc:
            result["error"] = error_record("check", exc)
    return save()
