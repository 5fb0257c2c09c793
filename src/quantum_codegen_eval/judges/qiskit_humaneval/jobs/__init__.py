"""Qiskit HumanEval's job modules are the function-test judges' (``judges/function_test/jobs``:
the candidate's ``runner``, the trusted ``check`` job, the ``codec``; ``frames`` is the judges' shared ``judges/jobs/frames``)."""

from ...function_test.jobs import codec, runner, trusted
from ...jobs import frames

__all__ = ["codec", "frames", "runner", "trusted"]
