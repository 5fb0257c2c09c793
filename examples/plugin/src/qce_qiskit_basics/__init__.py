"""qiskit_basics: five small Qiskit tasks, a benchmark from outside quantum-codegen-eval.

The entry point ``qiskit_basics = "qce_qiskit_basics"`` (pyproject.toml, group
``quantum_codegen_eval.benchmarks``) names this module; its ``BENCHMARK`` is the declaration the
registry reads. The tasks (prompt, tests, reference solution) ship as package data
(``data/tasks.jsonl``), so nothing is downloaded or built. Only the public API is imported.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from importlib import resources
from typing import Any

from quantum_codegen_eval.plugin import Benchmark, FeedbackWording, UsageError, extract_all_blocks

CONFIGS = ("all",)


@dataclass(frozen=True)
class Task:
    """One task: what the model is told, the function it must define, the tests that call it
    (``test_*`` functions, the candidate's function bound under ``entry_point``) and a
    reference solution."""

    task_id: str
    prompt: str
    entry_point: str
    test: str
    reference: str
    group: str


def _rows() -> list[dict[str, Any]]:
    text = resources.files(__name__).joinpath("data/tasks.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _check(config: str | None) -> None:
    if config not in (None, *CONFIGS):
        raise UsageError(f"unknown qiskit_basics config {config!r}; known: {', '.join(CONFIGS)}")


def load(config: str | None = None, *, data_dir: Any = None, split: str | None = None):
    """The tasks as a ``datasets.Dataset`` (``data_dir`` is not used: the data ships here)."""
    import datasets

    _check(config)
    return datasets.Dataset.from_list(_rows(), features=features(config), split=split or "test")


def problems(config: str | None = None, *, data_dir: Any = None) -> dict[str, Task]:
    _check(config)
    return {row["task_id"]: Task(**{f.name: row[f.name] for f in fields(Task)})
            for row in _rows()}


def get_problem(problem_id: str, *, data_dir: Any = None) -> Task:
    tasks = problems()
    if problem_id not in tasks:
        raise KeyError(f"qiskit_basics: no task {problem_id!r}; known: {', '.join(tasks)}")
    return tasks[problem_id]


def prompt(record: Task) -> str:
    return (f"{record.prompt}\nAnswer with the complete Python code (imports included) in one "
            "```python block.")


def reference_code(record: Task) -> str:
    return record.reference


def features(config: str | None = None):
    import datasets

    return datasets.Features({f.name: datasets.Value("string") for f in fields(Task)})


def make_judge(**options: Any):
    from .judge import QiskitBasicsJudge

    return QiskitBasicsJudge(**options)


BENCHMARK = Benchmark(
    name="qiskit_basics", description="five small Qiskit tasks (an example plugin)",
    module=__name__, hub_id="", configs=CONFIGS, splits={"all": "test"}, record_type=Task,
    record_configs=CONFIGS, features=features, language=lambda config: "qiskit",
    group_by="topic", group=lambda r: r.group, prompt=prompt, reference=reference_code,
    reference_kind=lambda r: "reference solution", extract=extract_all_blocks, judge=make_judge,
    feedback=FeedbackWording(run_hint="Make sure the function runs and returns a Qiskit object."))
