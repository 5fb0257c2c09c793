"""Qiskit HumanEval's wire codec: the function-test judges' (``function_test/jobs/codec.py``)."""

from ...function_test.jobs.codec import CODEC

__all__ = ["CODEC"]
