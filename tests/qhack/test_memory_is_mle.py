"""Running out of the sandbox's memory limit is MLE wherever the MemoryError surfaces: caught by
the harness in the solution function or at load, raised by NumPy's dense allocation, or the
cause of another exception the program raised. Other exceptions stay RE."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.judges.base import judge_many
from quantum_codegen_eval.judges.qhack.judge import QHackJudge

GROWS = ("def add_numbers(x, y):\n    keep = []\n    while True:\n"
         "        keep.append(bytearray(1 << 28))\n")
DENSE_AT_LOAD = ("import numpy\nU = numpy.zeros((2 ** 17, 2 ** 17), dtype=complex)\n\n"
                 "def add_numbers(x, y):\n    return x + y\n")
DENSE_IN_CALL = ("import numpy\n\ndef add_numbers(x, y):\n"
                 "    m = numpy.eye(2 ** 17, dtype=complex)\n    return x + y\n")
RERAISED = ("def add_numbers(x, y):\n    try:\n        b = bytearray(1 << 45)\n"
            "    except MemoryError:\n        raise ValueError('no room')\n    return x + y\n")
PLAIN_ERROR = "def add_numbers(x, y):\n    raise ValueError('no room')\n"


def test_memory_exhaustion_is_mle_wherever_it_surfaces(qhack_problems, sandbox):
    rec = qhack_problems["2023/tutorial_1"]
    judge = QHackJudge(env="current", memory_mb=3072)
    codes = [GROWS, DENSE_AT_LOAD, DENSE_IN_CALL, RERAISED, PLAIN_ERROR]
    verdicts = judge_many(judge, [(rec, c) for c in codes], sandbox)
    got = [v.status for v in verdicts]
    assert got == ["MLE", "MLE", "MLE", "MLE", "RE"], [(v.status, v.message) for v in verdicts]
    assert all(not v.judge_error for v in verdicts)
    assert verdicts[0].error_class == verdicts[1].error_class != verdicts[4].error_class


@pytest.mark.parametrize("exc, expected", [
    ("MemoryError()", True), ("ValueError('x')", False),
])
def test_ran_out_of_memory(exc, expected):
    from quantum_codegen_eval.judges.jobs.memory import ran_out_of_memory

    assert ran_out_of_memory(eval(exc)) is expected
    try:
        try:
            raise eval(exc)
        except Exception as inner:
            raise KeyError("outer") from inner
    except KeyError as outer:
        assert ran_out_of_memory(outer) is expected
