"""Qiskit HumanEval's job modules are the function-test judges' (``judges/function_test/jobs``:
the candidate's ``runner``, the trusted ``check`` job, ``frames``, the ``codec``)."""

from ...function_test.jobs import codec, frames, runner, trusted

__all__ = ["codec", "frames", "runner", "trusted"]
