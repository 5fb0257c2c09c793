"""Every metric result is a typed object that still reads and converts like a dict."""

from __future__ import annotations

import doctest
import json

from quantum_codegen_eval.metrics import (
    find_hallucinations,
    hallucination_rate,
    pass_at_k,
    pass_at_k_ci,
    results,
    rouge_l,
)
from quantum_codegen_eval.metrics.codebleu import codebleu


def test_docstring_examples():
    result = doctest.testmod(results)
    assert result.attempted > 0 and result.failed == 0


def test_every_result_converts_to_a_json_ready_dict():
    outs = [
        codebleu(["x = 1"], ["x = 2"]),
        rouge_l(["qml.RX(0.5, wires=0)"], ["qml.RY(0.5, wires=0)"]),
        pass_at_k([10, 10], [0, 5], 5, per_problem=True),
        pass_at_k_ci([10, 10], [0, 5], 1, n_boot=50),
        hallucination_rate(["import pennylane as qml\nqml.Hadamrd(0)"]),
        find_hallucinations("import pennylane as qml\nqml.RX")[0],
    ]
    for out in outs:
        assert isinstance(out, results.MappingResult)
        plain = out.as_dict()
        assert set(plain) == set(dict(out)) == set(out.keys())
        assert all(out[k] == getattr(out, k) for k in out)
        json.dumps(plain)  # no tuples of results, no dataclasses left
    assert outs[0]["codebleu"] == outs[0].codebleu
    assert outs[1]["f"] == outs[1].f and outs[1].per_sample[0]["f"] == outs[1].f
