"""A throwaway benchmark of the built-in shape, outside the package (tests/core/test_plugins.py):
HumanEval-style tasks (``check(candidate)``) shipped as package data, judged by the Qiskit
HumanEval judge. It reaches the registry only through its entry point; nothing in
quantum_codegen_eval names it."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from quantum_codegen_eval.benchmarks.qiskit_humaneval import FIELDS, Task, task_from_row
from quantum_codegen_eval.benchmarks.qiskit_humaneval import candidate_code as candidate_code
from quantum_codegen_eval.plugin import Benchmark, UsageError, extract_all_blocks

CONFIGS = ("all",)


def _rows() -> list[dict[str, Any]]:
    text = resources.files(__name__).joinpath("tasks.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def load(config: str | None = None, *, data_dir: Any = None, split: str | None = None):
    import datasets

    return datasets.Dataset.from_list(_rows(), split=split or "test")


def problems(config: str | None = None, *, data_dir: Any = None) -> dict[str, Task]:
    return {row["task_id"]: task_from_row({f: row[f] for f in FIELDS}, "normal")
            for row in _rows()}


def get_problem(problem_id: str, *, data_dir: Any = None) -> Task:
    tasks = problems()
    if problem_id not in tasks:
        raise UsageError(f"throwaway: no task {problem_id!r}")
    return tasks[problem_id]


def make_judge(**options: Any):
    from quantum_codegen_eval.judges.qiskit_humaneval import QiskitHumanEvalJudge

    return QiskitHumanEvalJudge(**{"time_limit": 30.0, **options})


def prompt(record: Task) -> str:
    return record.prompt


def reference_code(record: Task) -> str:
    return record.prompt + record.canonical_solution


def _features(config: str):
    import datasets

    return datasets.Features({f: datasets.Value("string") for f in FIELDS})


BENCHMARK = Benchmark(
    name="throwaway", description="two Qiskit tasks of a throwaway plugin", module=__name__,
    hub_id="", configs=CONFIGS, splits={"all": "test"}, record_type=Task, record_configs=CONFIGS,
    features=_features, language=lambda config: "qiskit", group_by="difficulty",
    group=lambda r: r.difficulty_scale or "all", prompt=prompt, reference=reference_code,
    reference_kind=lambda r: "canonical solution", extract=extract_all_blocks,
    candidate=candidate_code, judge=make_judge)
