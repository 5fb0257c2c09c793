"""What a benchmark from outside the package needs, in one public module.

A distribution adds a benchmark by declaring an entry point of the group
``quantum_codegen_eval.benchmarks`` (its name -> the module that declares ``BENCHMARK``); the
registry lists it beside the built-in ones (``qce benchmarks``). Everything such a module and its
judge use is here, so a plugin imports nothing private (docs/writing-a-benchmark.md)::

    from quantum_codegen_eval.plugin import Benchmark, make_verdict, read_result, Job

* the declaration: :class:`Benchmark`, :class:`FeedbackWording`, :func:`no_group`, the extraction
  rules :func:`extract_last_block` / :func:`extract_all_blocks`, :class:`UsageError`;
* the judge: :class:`FunctionTestJudge`, the base of a judge that calls the candidate's function
  and checks the results in a trusted process (a subclass gives the test source, the style
  ``"check"`` or ``"tests"``); for any other shape, the staged-judge protocol :class:`Judge`,
  :func:`make_verdict` (the one way to build
  a verdict), :func:`judge_error`, :class:`Evidence`, :func:`read_result` (a job's JSON result,
  bounded, typed: :class:`JobResult`), :func:`run_timings`, :func:`job_source` (a job module
  shipped into a sandbox job), :func:`judge_one` / :func:`judge_many` (run a judge's stages);
* the verdict: :class:`Verdict`, :class:`TestResult`, :data:`STATUSES`, :data:`ERROR_CLASSES`;
* the sandbox: :class:`Sandbox`, :class:`Job`, :class:`Limits`, :class:`RunResult`.
"""

from __future__ import annotations

from .benchmarks.base import (
    ENTRY_POINT_GROUP,
    Benchmark,
    FeedbackWording,
    UsageError,
    extract_all_blocks,
    extract_last_block,
    no_group,
)
from .execution import Job, Limits, RunResult, Sandbox
from .judges._embed import job_source
from .judges.base import (
    Evidence,
    JobResult,
    Judge,
    ResultFailure,
    judge_error,
    judge_many,
    judge_one,
    make_verdict,
    read_result,
    run_timings,
)
from .judges.function_test import FunctionTestJudge
from .verdict import ERROR_CLASSES, STATUSES, TestResult, Verdict

__all__ = [
    "ENTRY_POINT_GROUP", "ERROR_CLASSES", "STATUSES", "Benchmark", "Evidence", "FeedbackWording",
    "FunctionTestJudge", "Job", "JobResult", "Judge", "Limits", "ResultFailure", "RunResult", "Sandbox", "TestResult",
    "UsageError", "Verdict", "extract_all_blocks", "extract_last_block", "job_source",
    "judge_error", "judge_many", "judge_one", "make_verdict", "no_group", "read_result",
    "run_timings",
]
