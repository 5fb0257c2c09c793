"""The trusted job (``Job.trusted``, the era interpreter of the program's job): no code of the
completion is in it. It loads the harness text the judge chose (the template's imports and
official ``check()``, or all harness code for a replay; ``(source, guarded)`` parts, a guarded
part's exception ignored), reads the expected values from ``qce_check.json`` and each test's
result file of the program's job (as the judge validated it; :func:`result_name`), one test at a
time (one parsed result in memory), and writes one outcome per test to ``qce_checked.json``.

``check`` (the judge's) says who decides: ``{"kind": "official"}`` the harness's ``check()``;
``{"kind": "compare", "rule": ...}`` the record's tolerance rule (:mod:`.compare`);
``{"kind": "circuit", "name": ...}`` a circuit check (:mod:`.circuit_check`); ``{"kind":
"record", ...}`` a recorded replay (:mod:`.replay`). ``shims``: ``env="current"``'s harness
helpers (:mod:`.shims`) are installed first.
"""

import json
import traceback

from . import circuit_check, compare, payload, replay, shims
from .seeding import seed_all

CHECK_FILE = "qce_check.json"
CHECKED_FILE = "qce_checked.json"


def result_name(index):
    """The file the program's result for test ``index`` is handed to this job in."""
    return f"qce_result_{int(index)}.json"


def _output(test):
    """The test's output: the tagged payload decoded, or for a replay (``raw``) the output and
    the record as they are."""
    with open(test["result"], "rb") as fh:
        res = json.load(fh)
    if test.get("raw"):
        return {"output": res["output"], "record": res.get("record")}
    return payload.decode(res["output"])


def _decider(ns, check):
    """``decide(output, expected, test)``: the check's message (falsy: passed), or it raises."""
    kind = check["kind"]
    if kind == "official":
        return lambda out, expected, test: ns["check"](out, expected)
    if kind == "compare":
        return lambda out, expected, test: compare.check(check["rule"], out, expected)
    if kind == "circuit":
        fn = circuit_check.CHECKS[check["name"]]
        return lambda out, expected, test: fn(ns, out, expected, test, check)
    if kind == "record":
        return replay.Replay(ns, check).check
    raise ValueError(f"unknown check {str(kind)[:40]!r}")


def main(harness, check, use_shims=False):
    with open(CHECK_FILE) as fh:
        spec = json.load(fh)
    # the harness's own namespace: its names (a stand-in called `decode`, say) never mix with
    # the job modules' names, which reach it only as explicit arguments
    ns = {"__name__": "__main__"}
    if use_shims:
        shims.install()
        ns.update(shims.helpers())
    seed_all(spec.get("seed", 0))  # draws made while the harness loads
    for source, guarded in harness:
        code = compile(source, "<qhack-trusted-check>", "exec")
        if not guarded:
            exec(code, ns)
            continue
        try:  # a template statement that needs the contestant's code is skipped
            exec(code, ns)
        except Exception:
            pass
    decide = _decider(ns, check)
    outcomes = []
    for t in spec["tests"]:
        seed_all(t.get("seed", 0) + 1)  # the check's own draws (oracles, couplings, shots)
        try:
            out = _output(t)
            msg = decide(out, t["expected"], t)
            out = None
            outcomes.append({"passed": not msg, "message": "" if not msg else str(msg)[:2000]})
        except AssertionError as exc:
            outcomes.append({"passed": False, "message": str(exc)[:2000] or "check() failed"})
        except Exception as exc:
            outcomes.append({"passed": False, "raised": True,
                             "message": f"{type(exc).__name__}: {str(exc)[:1500]}",
                             "traceback": traceback.format_exc()[-3000:]})
    with open(CHECKED_FILE, "w") as fh:
        json.dump({"outcomes": outcomes}, fh)
