"""The Qiskit HumanEval judge (``judge.py``): the test's ``check(candidate)`` runs in a trusted
process, the candidate in the sandbox, reached through a proxy (the job modules
``jobs/trusted.py`` and ``jobs/runner.py``) over the wire codec (``jobs/codec.py``: the shared
``judges/jobs/wire*.py``) in frames (``jobs/frames.py``)."""

from .judge import BENCHMARK, DEFAULT_TIME_LIMIT, WALL_FACTOR, QiskitHumanEvalJudge
from .modes import UNSUPPORTED, check_mode
from .program import build_program, candidate_program, check_source, completion_code

__all__ = ["BENCHMARK", "DEFAULT_TIME_LIMIT", "UNSUPPORTED", "WALL_FACTOR",
           "QiskitHumanEvalJudge", "build_program", "candidate_program", "check_mode",
           "check_source", "completion_code"]
