"""Run by tests/qhack/test_result_memory.py in a fresh interpreter: judge one completion and print
the judge process's own peak memory before and after, and the trusted job's peak, as JSON."""

from __future__ import annotations

import json
import resource
import sys

from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.execution import Sandbox
from quantum_codegen_eval.judges.base import code_of


def main(data_dir: str, challenge: str, program_file: str) -> None:
    record = qhack.problems("all", data_dir=data_dir)[challenge]
    judge = qhack.make_judge(env="era")
    with open(program_file, encoding="utf-8") as fh:
        code = code_of(judge, fh.read())  # the driver's extraction
    with Sandbox() as sb:
        jobs = judge.jobs(record, code)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        results = [sb.run_job(j) for j in jobs]
        step = judge.decide(record, code, results)
        trusted = None
        if isinstance(step, list):
            extra = [sb.run_job(j) for j in step]
            trusted = max(r.peak_memory_mb for r in extra)
            step = judge.decide(record, code, results + extra)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"status": step.status, "message": step.message[:500],
                      "judge_error": step.details.get("judge_error"),
                      "judge_growth_mb": (after - before) / 1024, "trusted_peak_mb": trusted,
                      "program_peak_mb": max(r.peak_memory_mb for r in results)}))


if __name__ == "__main__":
    main(*sys.argv[1:4])
