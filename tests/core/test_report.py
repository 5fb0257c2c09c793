"""Refinement curve and plots, with a scripted generate() and the real sample judge."""

from __future__ import annotations

from sample_answers import RIGHT, WRONG

from quantum_codegen_eval.benchmarks import sample
from quantum_codegen_eval.execution import Sandbox
from quantum_codegen_eval.refinement import refine
from quantum_codegen_eval.report import plot_refinement, refinement_curve


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


def test_plot_titles_name_benchmark_and_config_and_counts_are_integers():
    from matplotlib.ticker import MaxNLocator

    from quantum_codegen_eval.report import Report, report_figures

    summary = {"group_by": "year", "pass@k": {"all": {"problems": 2, "pass@1": 0.5,
                                                      "partial_credit": 0.5}},
               "errors": {"reasoning": 3, "timeout": 1}}
    figures = report_figures(Report("qhack", "2023", summary, [], []))
    assert set(figures) == {"pass_at_k", "errors"}
    assert figures["pass_at_k"].axes[0].get_title() == "qhack (2023): pass@k"
    errors = figures["errors"].axes[0]
    assert errors.get_title() == "qhack (2023): error classes"
    assert isinstance(errors.yaxis.get_major_locator(), MaxNLocator)
    assert all(float(t).is_integer() for t in errors.get_yticks())
