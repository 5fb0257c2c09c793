"""Refinement curve and plots, with a scripted generate() and the real sample judge."""

from __future__ import annotations

from quantum_codegen_eval.benchmarks import sample
from quantum_codegen_eval.execution import Sandbox
from quantum_codegen_eval.feedback import refine
from quantum_codegen_eval.report import plot_refinement, refinement_curve

WRONG = "```python\ndef bell_circuit():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    return qc\n```"
RIGHT = "```python\ndef bell_circuit():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    qc.cx(0, 1)\n    return qc\n```"


def test_refine_curve_and_plot(tmp_path):
    task = sample.get_problem("sample/qk_bell_circuit")
    judge = sample.make_judge()
    prompts = []

    def scripted(answers):
        it = iter(answers)

        def generate(prompt):
            prompts.append(prompt)
            return next(it)
        return generate

    with Sandbox(workers=1) as sb:
        second = refine(scripted([WRONG, RIGHT]), task, judge=judge, sandbox=sb, max_rounds=3)
        never = refine(scripted([WRONG] * 3), task, judge=judge, sandbox=sb, max_rounds=3)
    assert second.first_ac_round == 1 and len(second.rounds) == 2
    assert never.first_ac_round is None and len(never.rounds) == 3
    assert "Judge feedback (attempt 1)" in prompts[1] and "(WA)" in prompts[1]
    curve = refinement_curve([second, never], max_rounds=3)
    assert curve == [0.0, 0.5, 0.5]
    png = plot_refinement(curve, tmp_path / "refine.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
