"""The untrusted job of a 2022 challenge whose driver hands the solution a hidden oracle: one
round of the query protocol (``judges/qhack/oracle.py``).

The job never gets the test's input: the uneditable driver runs with a decoy input on stdin, and
the solution function is called with placeholders (:func:`.oracle_circuit.placeholders`) instead
of the oracles the driver built from it. Each QNode execution that applies a placeholder is a
query: the first ones are answered from the job file (what the trusted oracle job returned in
earlier rounds, for the same circuits); at the first unanswered one the job writes the query and
ends at once. A program that runs to its end has its printed output written, as a 2022 script
job's.
"""

import json
import os

from . import oracle_circuit, shims
from .driver import error_record, run_driver
from .seeding import seed_all

JOB_FILE, RESULT_FILE = "qce_job.json", "qce_result.json"


def _raised(error):
    """The exception the trusted job reported for a query, raised where the QNode was called."""
    import pennylane as qml

    name = str(error.get("type", ""))
    cls = {"WireError": getattr(getattr(qml, "wires", None), "WireError", None),
           "DeviceError": getattr(qml, "DeviceError", None),
           "QuantumFunctionError": getattr(qml, "QuantumFunctionError", None),
           "ValueError": ValueError, "TypeError": TypeError}.get(name) or RuntimeError
    return cls(str(error.get("message", "the circuit could not be run"))[:2000])


class _Rounds:
    """Answers of earlier rounds, handed out in execution order; the first unanswered query ends
    the job (its result file then holds the query)."""

    def __init__(self, answers, write, leave):
        self.answers, self.write, self.leave, self.count = answers, write, leave, 0

    def answer(self, query):
        index, self.count = self.count, self.count + 1
        key = json.dumps(query, sort_keys=True)
        if index >= len(self.answers):
            self.write({"query": query, "index": index})
            self.leave(0)
        given = self.answers[index]
        if json.dumps(given.get("query"), sort_keys=True) != key:
            raise RuntimeError(f"execution {index + 1} ran a different circuit than in the "
                               "previous round: the program must run the same circuits when "
                               "it is run again with the same seed")
        if "error" in given:
            raise _raised(given["error"])
        return oracle_circuit.decode_result(given["result"])


def _install(rounds):
    import pennylane as qml

    original = qml.QNode.__call__

    def call(self, *args, **kwargs):
        query = oracle_circuit.query_of(self, args, kwargs)
        if query is None:
            return original(self, *args, **kwargs)
        return rounds.answer(query)

    qml.QNode.__call__ = call


def _with_placeholders(solution, count, wires, g):
    """``solution`` called with placeholders in place of the oracle(s) of its first argument
    (one callable, or a list of them); the driver's own names for those oracles (``oracle``,
    ``f1``..., which a solution in the same module could use, as people did) name the
    placeholders too."""
    stand_ins = oracle_circuit.placeholders(count, wires)

    def call(first, *args, **kwargs):
        given = list(first) if isinstance(first, (list, tuple)) else [first]
        for name, value in list(g.items()):
            for k, oracle in enumerate(given[:count]):
                if value is oracle:
                    g[name] = stand_ins[k]
        if isinstance(first, (list, tuple)):
            first = type(first)(stand_ins[:len(first)])
        else:
            first = stand_ins[0]
        return solution(first, *args, **kwargs)

    return call


def main():
    dumps, exit_now = json.dumps, os._exit
    with open(JOB_FILE) as fh:
        spec = json.load(fh)
    os.remove(JOB_FILE)
    seed_all(spec["seed"])
    out_fd = os.open(RESULT_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)

    def save(result):
        data = dumps(result).encode("utf-8", "surrogatepass")
        os.lseek(out_fd, 0, 0)
        os.ftruncate(out_fd, 0)
        while data:
            data = data[os.write(out_fd, data):]

    oracle = spec["oracle"]
    g = {"__name__": "__main__", "__builtins__": __builtins__}
    try:
        _install(_Rounds(spec["answers"], save, exit_now))
        if spec.get("shims"):  # env="current": the rewritten harness calls the shims' helpers
            shims.install()
            g.update(shims.helpers())
        for label, src in spec["parts"]:
            exec(compile(src, label, "exec"), g)
        g[oracle["function"]] = _with_placeholders(g[oracle["function"]], oracle["count"],
                                                   oracle["wires"], g)
    except BaseException as exc:
        return save({"error": error_record("load", exc)})
    return save(run_driver(spec["driver"], spec["input"], g))
