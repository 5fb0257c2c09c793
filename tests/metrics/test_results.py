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
        codebleu(references=["x = 1"], predictions=["x = 2"]),
        rouge_l(references=["qml.RX(0.5, wires=0)"], predictions=["qml.RY(0.5, wires=0)"]),
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
    assert float(outs[2]) == outs[2].value and outs[2].signature.startswith("pass_at_k|k:5|")


def test_every_metric_result_carries_a_signature():
    """pass@k and the hallucination check too, not only CodeBLEU and ROUGE-L."""
    found = find_hallucinations("import pennylane as qml\nqml.RX\nqml.Hadamrd", "0.34",
                                devices=["qiskit.*"])
    assert [f.name for f in found] == ["qml.RX", "qml.Hadamrd"] and len(found) == 2
    assert found[1] is found.findings[1] and found.target == "0.34.0" and not found.recovered
    assert found.signature.startswith("find_hallucinations|pennylane:0.34.0|index:")
    assert "|devices:qiskit.*|recover:no|qce:" in found.signature
    plain = found.as_dict()
    assert [f["status"] for f in plain["findings"]] == ["ok", "hallucinated"]
    assert json.loads(json.dumps(plain)) == plain
    recovered = find_hallucinations("import pennylane as qml\nqml.RX(\n", recover=True)
    assert recovered.recovered and "|recover:yes|" in recovered.signature
    for out in (pass_at_k(10, 3, 1), pass_at_k_ci([10], [3], 1, n_boot=10),
                codebleu(references=["x = 1"], predictions=["x = 2"]),
                rouge_l(references=["a"], predictions=["a"]), hallucination_rate(["x = 1"])):
        assert out.signature.split("|")[0] in {"pass_at_k", "pass_at_k_ci", "codebleu",
                                                "rouge_l", "hallucination_rate"}
