"""The Quantum Katas judge (``judge.py``): a ``FunctionTestJudge`` (``judges/function_test``)
whose test functions run in a trusted process, the candidate's functions reached through a
proxy."""

from .judge import BENCHMARK, DEFAULT_TIME_LIMIT, QuantumKatasJudge, helper_names, task_classes

__all__ = ["BENCHMARK", "DEFAULT_TIME_LIMIT", "QuantumKatasJudge", "helper_names",
           "task_classes"]
