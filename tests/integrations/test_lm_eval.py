"""The lm-eval task folder: real lm-eval objects (``TaskManager(include_path=...)``, the task's
docs, ``process_results`` judging, a run with ``log_samples``) and its samples file read back by
``qce evaluate``."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from harness_models import fixed_lm
from integration_programs import EXPECTED, PROGRAMS, statuses

pytest.importorskip("lm_eval")

from lm_eval.tasks import TaskManager  # noqa: E402

from quantum_codegen_eval import evaluate  # noqa: E402
from quantum_codegen_eval.benchmarks.base import judged as judged_names  # noqa: E402
from quantum_codegen_eval.benchmarks.base import origin  # noqa: E402
from quantum_codegen_eval.integrations import lm_eval as qce_lm_eval  # noqa: E402


def test_every_judged_benchmark_has_a_shipped_task(tmp_path):
    judged = sorted(f"qce_{name}" for name in judged_names() if origin(name).kind == "built-in")
    # the package data itself (include_path() would fall back to a folder it generates)
    shipped = Path(str(resources.files(qce_lm_eval.__package__).joinpath(qce_lm_eval.TASKS)))
    assert sorted(p.stem for p in shipped.glob("*.yaml")) == judged
    assert qce_lm_eval.include_path() == str(shipped)
    written = qce_lm_eval.write_tasks(tmp_path)  # the shipped files are the generator's output
    assert {p.name: p.read_text() for p in written} == {
        p.name: p.read_text() for p in shipped.glob("*.yaml")}
    tasks = TaskManager(include_path=str(shipped)).all_tasks
    assert set(judged) <= set(tasks)


@pytest.fixture(scope="module")
def sample_task():
    manager = TaskManager(include_path=qce_lm_eval.include_path(), metadata={"config": "qiskit"})
    return manager.load(["qce_sample"])["tasks"]["qce_sample"]


def test_docs_are_the_prompts_and_process_results_judges(sample_task, prompts):
    docs = list(sample_task.test_docs())
    assert {d["id"]: sample_task.doc_to_text(d) for d in docs} == prompts
    bell = next(d for d in docs if d["id"] == "sample/qk_bell_circuit")
    right = sample_task.process_results(bell, [PROGRAMS["sample/qk_bell_circuit"]])
    assert right["pass@1"] == 1.0 and right["status_AC"] == 1.0
    wrong = sample_task.process_results(bell, ["    return QuantumCircuit(2)\n"])
    assert wrong["pass@1"] == 0.0 and wrong["status_WA"] == 1.0 and wrong["status_AC"] == 0.0


@pytest.mark.slow
def test_log_samples_read_back_with_the_judges_statuses(answers, sandbox, tmp_path):
    from lm_eval import simple_evaluate
    from lm_eval.loggers import EvaluationTracker

    manager = TaskManager(include_path=qce_lm_eval.include_path(), metadata={"config": "qiskit"})
    tracker = EvaluationTracker(output_path=str(tmp_path))
    out = simple_evaluate(model=fixed_lm(answers), tasks=["qce_sample"], task_manager=manager,
                          log_samples=True, evaluation_tracker=tracker,
                          confirm_run_unsafe_code=True)
    assert out["results"]["qce_sample"]["pass@1,none"] == 0.5
    tracker.save_results_aggregated(results=out, samples=out["samples"])
    tracker.save_results_samples(task_name="qce_sample", samples=out["samples"]["qce_sample"])
    (path,) = tmp_path.rglob("samples_qce_sample_*.jsonl")
    logged = {}
    for line in path.read_text().splitlines():
        row = json.loads(line)
        logged[row["doc"]["id"]] = next(s for s in EXPECTED.values() if row[f"status_{s}"] == 1.0)
    assert logged == EXPECTED
    report = evaluate(str(path), "sample", "qiskit", sandbox=sandbox, metrics=("pass@k",), k=(1,))
    assert statuses(report) == {f"{pid}#0": s for pid, s in EXPECTED.items()}
