"""The Qiskit HumanEval judge (``judge.py``): the test's ``check(candidate)`` runs in a trusted
process, the candidate in the sandbox, reached through a proxy (``trusted.py``, ``runner.py``)
over safe serialisations (``transport.py``, ``frames.py``)."""

from .judge import BENCHMARK, DEFAULT_TIME_LIMIT, WALL_FACTOR, QiskitHumanEvalJudge
from .modes import UNSUPPORTED, check_mode
from .program import build_program, candidate_program, check_source, completion_code

__all__ = ["BENCHMARK", "DEFAULT_TIME_LIMIT", "UNSUPPORTED", "WALL_FACTOR",
           "QiskitHumanEvalJudge", "build_program", "candidate_program", "check_mode",
           "check_source", "completion_code"]
