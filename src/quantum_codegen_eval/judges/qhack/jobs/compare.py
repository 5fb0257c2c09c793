"""The trusted comparison of a ``live`` challenge: the record's plain ``allclose``/``isclose``
rule (``{"func", "rtol", "atol"}``) on the JSON texts of the output and the expected value."""

import json

import numpy as np

FUNCS = ("allclose", "isclose")


def check(rule, solution_output, expected_output):
    func = rule["func"]
    if func not in FUNCS:
        raise ValueError(f"unknown comparison {str(func)[:40]!r}")
    close = getattr(np, func)
    assert np.all(close(json.loads(solution_output), json.loads(expected_output),
                        rtol=float(rule["rtol"]), atol=float(rule["atol"]))), \
        "output not within tolerance of the expected value"
