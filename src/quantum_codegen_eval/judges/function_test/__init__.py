"""The function-test judge (``_judge.py``), base of the judges that call the candidate's
function and check the results in a trusted process (Qiskit HumanEval, Quantum Katas): the test
runs in a trusted job, the candidate in the sandbox, reached through a proxy (the job modules
``jobs/trusted.py`` and ``jobs/runner.py``) over the wire codec (``jobs/codec.py``: the shared
``judges/jobs/wire*.py``) in frames (``jobs/frames.py``)."""

from ._judge import FunctionTestJudge, test_functions

__all__ = ["FunctionTestJudge", "test_functions"]
