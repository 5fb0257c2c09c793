"""``Job.prelude``: the host's code a worker runs once before forking; later jobs inherit what it
left, and a job's own changes stay its own."""

from __future__ import annotations

import json

from quantum_codegen_eval.execution import Job, Sandbox

#: registers a module ``qce_demo`` in the worker, counting how often it ran there
PRELUDE = """
import sys, types
module = sys.modules.get("qce_demo") or types.ModuleType("qce_demo")
module.ANSWER = 6 * 7
module.RUNS = getattr(module, "RUNS", 0) + 1
sys.modules["qce_demo"] = module
"""

#: reports what the worker left, then spoils this job's copy of it
PROBE = """
import json, sys
module = sys.modules.get("qce_demo")
print(json.dumps({"answer": getattr(module, "ANSWER", None), "runs": getattr(module, "RUNS", 0)}))
if module is not None:
    module.ANSWER = -1
"""


def _probe(sb: Sandbox, **fields) -> dict:
    r = sb.run_job(Job(PROBE, **fields))
    assert r.ok, r.stderr
    return json.loads(r.stdout)


def test_a_prelude_runs_once_and_later_jobs_inherit_it():
    with Sandbox(workers=1, preload=(), wall_time=10) as sb:
        assert _probe(sb) == {"answer": None, "runs": 0}
        assert _probe(sb, prelude=PRELUDE) == {"answer": 42, "runs": 1}
        # kept by the worker for a job that does not name it; a job's change stays its own
        assert _probe(sb) == {"answer": 42, "runs": 1}
        assert _probe(sb, prelude=PRELUDE) == {"answer": 42, "runs": 1}  # sent once


def test_a_fresh_interpreter_runs_no_prelude():
    with Sandbox(workers=1, preload=(), wall_time=20, fresh=True) as sb:
        assert _probe(sb, prelude=PRELUDE) == {"answer": None, "runs": 0}


def test_a_failing_prelude_is_left_to_the_job():
    failing = PRELUDE + "raise RuntimeError('the job does without it')\n"
    with Sandbox(workers=1, preload=(), wall_time=10) as sb:
        assert _probe(sb, prelude="def (:\n") == {"answer": None, "runs": 0}
        # what it did before it raised stays (the job's bootstrap must not rely on a prelude)
        assert _probe(sb, prelude=failing) == {"answer": 42, "runs": 1}
        assert _probe(sb, prelude=PRELUDE) == {"answer": 42, "runs": 2}


def test_a_worker_runs_a_bounded_number_of_preludes():
    from quantum_codegen_eval.execution import _worker

    with Sandbox(workers=1, preload=(), wall_time=10) as sb:
        for i in range(_worker.MAX_PRELUDES):
            _probe(sb, prelude=f"X{i} = {i}\n")
        assert _probe(sb, prelude=PRELUDE) == {"answer": None, "runs": 0}
