"""evaluate() on QHack 2023 in the era environment: pass@k, partial credit, template CodeBLEU,
hallucination rate against the era PennyLane version."""

from __future__ import annotations

from pathlib import Path

import pytest

from quantum_codegen_eval import evaluate

pytestmark = pytest.mark.era  # QHack era environments

SOLUTIONS = Path(__file__).parent / "solutions" / "2023"


@pytest.mark.slow
def test_evaluate_qhack_2023(qhack_data, sandbox):
    preds = {
        "2023/tutorial_1": [(SOLUTIONS / "tutorial_1.py").read_text(),
                            (SOLUTIONS / "tutorial_1.wrong.py").read_text()],
        "2023/tutorial_6": [(SOLUTIONS / "tutorial_6.py").read_text(),
                            "```python\nimport pennylane as qml\nqml.MagicGate(wires=0)\n```"],
    }
    report = evaluate(preds, "qhack", "2023", data_dir=qhack_data, k=(1,), sandbox=sandbox)
    by_key = {r["key"]: r for r in report.per_sample}
    assert by_key["2023/tutorial_1#0"]["status"] == "AC"
    assert by_key["2023/tutorial_1#1"]["status"] == "WA"
    assert by_key["2023/tutorial_6#0"]["status"] == "AC"
    assert by_key["2023/tutorial_6#1"]["status"] != "AC"
    assert by_key["2023/tutorial_6#1"]["hallucinated"] == ["qml.MagicGate"]
    assert report.summary["pass@k"]["all"]["pass@1"] == 0.5
    assert report.summary["hallucination"]["samples_with_hallucination"] == 1
    # CodeBLEU against the template (the PennySynth protocol): every judged sample has a score
    assert all(0 <= r["codebleu"] <= 1 for r in report.per_sample)
