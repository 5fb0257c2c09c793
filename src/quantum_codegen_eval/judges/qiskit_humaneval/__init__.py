"""The Qiskit HumanEval judge (``judge.py``): a ``FunctionTestJudge`` (``judges/function_test``)
whose test's ``check(candidate)`` runs in a trusted process, the candidate in the sandbox,
reached through a proxy; ``program.py`` builds both programs, ``modes.py`` lists the tasks the
proxy cannot check. ``jobs`` re-exports the function-test job modules."""

from .judge import BENCHMARK, DEFAULT_TIME_LIMIT, WALL_FACTOR, QiskitHumanEvalJudge
from .modes import UNSUPPORTED, check_mode
from .program import build_program, candidate_program, check_source

__all__ = ["BENCHMARK", "DEFAULT_TIME_LIMIT", "UNSUPPORTED", "WALL_FACTOR",
           "QiskitHumanEvalJudge", "build_program", "candidate_program", "check_mode",
           "check_source"]
