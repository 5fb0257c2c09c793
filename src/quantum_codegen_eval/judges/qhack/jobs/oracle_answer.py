"""The trusted oracle job of a 2022 hidden-oracle challenge (``judges/qhack/oracle.py``): runs
the circuits the program's job asked for with the real oracles, which exist only here.

For each test, the harness's imports and the uneditable driver run with the test's input on
stdin and a stand-in for the solution function that keeps the oracles the driver hands it; each
query is validated (:func:`.oracle_circuit.circuit_of`), rebuilt with those oracles in place of
the placeholders and executed on a fresh device seeded from the judge's seed. No code of the
program is in this job.
"""

import contextlib
import io
import json
import sys

from . import oracle_circuit, shims
from .seeding import seed_all

CHECK_FILE, CHECKED_FILE = "qce_oracle.json", "qce_oracle_answers.json"


def real_oracles(harness, driver, function, test_input, use_shims=False):
    """The oracles the driver builds from ``test_input`` and hands to ``function``, in the order
    of its first argument (one callable, or a list of them)."""
    kept = []

    def stand_in(first, *args, **kwargs):
        kept.extend(first if isinstance(first, (list, tuple)) else [first])
        return ()

    ns = {"__name__": "__main__"}
    if use_shims:  # env="current": the rewritten harness calls the shims' helpers
        shims.install()
        ns.update(shims.helpers())
    stdin = sys.stdin
    sys.stdin = io.StringIO(test_input)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(harness, "<qhack-harness>", "exec"), ns)
            ns[function] = stand_in
            exec(compile(driver, "<qhack-driver>", "exec"), ns)
    finally:
        sys.stdin = stdin
    return kept


def answer(circuit, oracles, takes_wires, seed):
    """``{"result": ...}`` or ``{"error": {"type", "message"}}`` for one validated query."""
    try:
        value = oracle_circuit.run_circuit(circuit, oracles, takes_wires, seed)
        return {"result": oracle_circuit.encode_result(value)}
    except Exception as exc:  # noqa: BLE001 - the program's circuit failed: reported to it
        return {"error": {"type": type(exc).__name__, "message": str(exc)[:2000]}}


def main():
    with open(CHECK_FILE) as fh:
        spec = json.load(fh)
    out = []
    for test in spec["tests"]:
        seed_all(test["seed"])
        oracles = real_oracles(spec["harness"], spec["driver"], spec["function"], test["input"],
                               spec.get("shims", False))
        answers = []
        for q in test["queries"]:
            try:
                circuit = oracle_circuit.circuit_of(q["query"], len(oracles))
            except oracle_circuit.QueryError as exc:
                answers.append({"error": {"type": "QuantumFunctionError", "message": str(exc)}})
                continue
            answers.append(answer(circuit, oracles, spec["wires"] is None, q["seed"]))
        out.append(answers)
    with open(CHECKED_FILE, "w") as fh:
        json.dump({"answers": out}, fh)
