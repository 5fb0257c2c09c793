"""The bundled sample: eight small quantum tasks written for this package, for ``qce demo``.

They use the HumanEval format (``check(candidate)``) and the Qiskit HumanEval judge, so the
demo exercises a real judge, the sandbox and every metric offline. Configs: ``pennylane`` (4
tasks), ``qiskit`` (4 tasks), ``all``.

>>> sorted(problems("qiskit"))[:2]
['sample/qk_basis_state', 'sample/qk_bell_circuit']
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from .qiskit_humaneval import FIELDS, Task, task_from_row
from .qiskit_humaneval import candidate_code as candidate_code  # the same assembly as the judge

HUB_ID = ""  # not on the Hub: shipped inside the package
CONFIGS = ("all", "pennylane", "qiskit")


def _rows() -> list[dict[str, Any]]:
    text = resources.files("quantum_codegen_eval").joinpath("data/sample/tasks.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def predictions_path() -> str:
    """The bundled sample predictions (JSONL)."""
    return str(resources.files("quantum_codegen_eval").joinpath("data/sample/predictions.jsonl"))


def _config(config: str | None) -> str:
    cfg = config or CONFIGS[0]
    if cfg not in CONFIGS:
        raise ValueError(f"unknown sample config {cfg!r}; expected one of {CONFIGS}")
    return cfg


def load(config: str | None = None, *, data_dir: Any = None, split: str | None = None):
    import datasets

    cfg = _config(config)
    rows = [r for r in _rows() if cfg == "all" or r["framework"] == cfg]
    return datasets.Dataset.from_list(rows, split=split or "test")


def problems(config: str | None = None, *, data_dir: Any = None) -> dict[str, Task]:
    """Typed tasks by id, read from the shipped file (the same rows as :func:`load`, without
    importing ``datasets``: seconds saved on every ``qce demo`` and ``qce judge sample``)."""
    cfg = _config(config)
    return {row["task_id"]: task_from_row({f: row[f] for f in FIELDS}, "normal")
            for row in _rows() if cfg == "all" or row["framework"] == cfg}


def get_problem(problem_id: str, *, data_dir: Any = None) -> Task:
    tasks = problems("all")
    if problem_id not in tasks:
        raise KeyError(f"sample: no task {problem_id!r}; known: {', '.join(sorted(tasks))}")
    return tasks[problem_id]


def _judge(**options: Any):
    """The Qiskit HumanEval judge; the worker of a PennyLane task preloads PennyLane."""
    from ..judges.qiskit_humaneval import QiskitHumanEvalJudge

    return QiskitHumanEvalJudge(**{"time_limit": 30.0, "preload": _preload, **options})


def _preload(task: Task) -> tuple[str, ...]:
    from ..judges.qiskit_humaneval.judge import PRELOAD

    return (*PRELOAD, "pennylane") if "import pennylane" in task.prompt else PRELOAD


def prompt(record: Task) -> str:
    return record.prompt


def reference_code(record: Task) -> str:
    return record.prompt + record.canonical_solution


def language(config: str | None) -> str:
    """The code language of a config, for CodeBLEU and the hallucination check."""
    return {"pennylane": "pennylane", "qiskit": "qiskit"}.get(_config(config), "python")


# ---------------------------------------------------------------- declaration

def _features(config: str):
    import datasets

    return datasets.Features({f: datasets.Value("string") for f in (*FIELDS, "framework")})


def _declare():
    from .base import Benchmark, extract_all_blocks

    return Benchmark(
        name="sample", description="the bundled sample: eight small tasks for `qce demo`",
        module=__name__, hub_id=HUB_ID, configs=CONFIGS, splits=dict.fromkeys(CONFIGS, "test"),
        record_type=Task, record_configs=CONFIGS, features=_features, language=language,
        group_by="difficulty", group=lambda r: r.difficulty_scale or "all", prompt=prompt,
        reference=reference_code, reference_kind=lambda r: "canonical solution",
        extract=extract_all_blocks, candidate=candidate_code, judge=_judge)


BENCHMARK = _declare()


def make_judge(**options: Any):
    """The benchmark's judge, with its extraction rule (``Benchmark.make_judge``); options as
    for ``_judge``."""
    return BENCHMARK.make_judge(**options)
