"""``Job.precompile``: texts a worker compiles once and keeps for the jobs it forks."""

from __future__ import annotations

import json

from quantum_codegen_eval.execution import Job, Sandbox

TEXT = ("<job demo>", "ANSWER = 6 * 7\n")

#: reports what the worker's cache holds for TEXT, then spoils this process's copy of it
PROBE = f"""
import json, sys
cache = getattr(sys.modules.get("_qce_precompiled"), "code", {{}})
code = cache.get({TEXT!r})
ns = {{}}
if code is not None:
    exec(code, ns)
print(json.dumps({{"cached": code is not None, "answer": ns.get("ANSWER"),
                  "file": getattr(code, "co_filename", None)}}))
cache[{TEXT!r}] = compile("ANSWER = -1", "<spoiled>", "exec")
"""


def _probe(sb: Sandbox, **fields) -> dict:
    r = sb.run_job(Job(PROBE, **fields))
    assert r.ok, r.stderr
    return json.loads(r.stdout)


def test_a_text_is_compiled_once_and_kept_for_later_jobs():
    with Sandbox(workers=1, preload=(), wall_time=10) as sb:
        assert _probe(sb) == {"cached": False, "answer": None, "file": None}
        first = _probe(sb, precompile=(TEXT,))
        assert first == {"cached": True, "answer": 42, "file": "<job demo>"}
        # kept by the worker for a job that does not name it; a job's change stays its own
        assert _probe(sb) == first
        assert _probe(sb, precompile=(TEXT,)) == first


def test_a_fresh_interpreter_has_no_cache():
    with Sandbox(workers=1, preload=(), wall_time=20, fresh=True) as sb:
        assert _probe(sb, precompile=(TEXT,))["cached"] is False


def test_a_text_that_does_not_compile_is_left_to_the_job():
    bad = ("<job bad>", "def (:\n")
    with Sandbox(workers=1, preload=(), wall_time=10) as sb:
        assert _probe(sb, precompile=(bad, TEXT))["cached"] is True
