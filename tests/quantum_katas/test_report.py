"""The report of a Quantum Katas run: pass@k by category and CodeBLEU against the canonical
solution, from the benchmark's declaration (canonical solutions and stubs of a few tasks)."""

from __future__ import annotations

from quantum_codegen_eval import evaluate
from quantum_codegen_eval.benchmarks import quantum_katas as qk

TASKS = ("BasicGates/1.1", "TruthTables/4", "tutorials/Oracles/2.1")


def test_report_groups_by_category_and_compares_with_the_canonical_solution(katas_dir, tmp_path):
    tasks = qk.problems(data_dir=katas_dir)
    rows = [{"id": i, "completion": f"```python\n{tasks[i].canonical_solution.rstrip()}\n```\n", "sample": 0}
            for i in TASKS]
    rows += [{"id": i, "completion": tasks[i].prompt, "sample": 1} for i in TASKS]
    report = evaluate(rows, "quantum_katas", data_dir=katas_dir, k=(1,),
                      store=tmp_path / "results.jsonl")
    status = {r["key"]: r["status"] for r in report.per_sample}
    assert {k: v for k, v in status.items() if k.endswith("#0")} == dict.fromkeys(
        (f"{i}#0" for i in TASKS), "AC")
    assert all(v != "AC" for k, v in status.items() if k.endswith("#1"))
    s = report.summary
    assert s["group_by"] == "category"
    assert set(s["pass@k"]) - {"all"} == {"BasicGates", "TruthTables", "tutorials"}, s["pass@k"]
    assert s["codebleu"]["codebleu"] > 0.5  # half the samples are the reference itself
    md = report.to_markdown()
    assert "| category |" in md and "canonical solution" in md
