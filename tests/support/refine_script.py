"""A scripted batch ``generate`` for the refinement tests, and a runner a test can kill.

Answers come from the bundled sample benchmark: its canonical solution (right), a body that
returns nothing (wrong: the check fails with an error, RE), or the same after a pause (slow: keeps a round's judging busy long
enough to be killed in). ``PLAN`` says, per problem and sample, which answer each round gets.

Run as a script: ``python refine_script.py STORE LOG`` runs ``refine_all`` on the sample's qiskit
config with the store folder STORE, appending one JSON line per ``generate`` call to LOG.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

#: problem -> one plan per sample: the answer kind of round r is plan[r] (the last one repeats);
#: r = right, w = wrong, s = slow and wrong
PLAN = {
    "sample/qk_bell_circuit": ("wwr",),  # fixed in round 2
    "sample/qk_ghz_circuit": ("r",),  # right at once
    "sample/qk_basis_state": ("wsw",),  # never right
}
ROUNDS = 3


def answer(task, kind: str) -> str:
    if kind == "r":
        body = task.canonical_solution
    elif kind == "s":
        body = "    import time\n    time.sleep(4)\n    return None\n"
    else:
        body = "    return None\n"
    return f"Here it is:\n```python\n{task.prompt}{body}```\n"


class ScriptedGenerate:
    """``generate(requests)``: the planned answer of each request; logs every call to ``log``."""

    def __init__(self, plan: dict[str, tuple[str, ...]], log: str | Path | None = None):
        from quantum_codegen_eval.benchmarks import sample

        self.tasks = sample.problems("all")
        self.plan, self.log = plan, log
        self.calls: list[list[tuple[str, int, int]]] = []
        self.requests: list = []

    def __call__(self, requests):
        self.calls.append([(r.problem_id, r.sample, r.round) for r in requests])
        self.requests.extend(requests)
        if self.log is not None:
            with open(self.log, "a") as fh:
                fh.write(json.dumps({"rounds": sorted({r.round for r in requests}),
                                     "prompts": len(requests)}) + "\n")
        out = []
        for r in requests:
            kinds = self.plan[r.problem_id][r.sample]
            out.append(answer(self.tasks[r.problem_id], kinds[min(r.round, len(kinds) - 1)]))
        return out


def problems():
    from quantum_codegen_eval.benchmarks import sample

    return {pid: task for pid, task in sample.problems("qiskit").items() if pid in PLAN}


def main(store: str, log: str) -> None:
    from quantum_codegen_eval.refinement import refine_all

    refine_all(ScriptedGenerate(PLAN, log), "sample", "qiskit", rounds=ROUNDS, problems=problems(),
               store=store, resume=True, workers=1, metrics=())


if __name__ == "__main__":
    main(*sys.argv[1:3])
