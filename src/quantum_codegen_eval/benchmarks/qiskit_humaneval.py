"""Qiskit HumanEval (qiskit-community/qiskit-human-eval, Apache-2.0): 151 tasks, normal and hard.

Records keep the upstream fields (``task_id``, ``prompt``, ``canonical_solution``, ``test``,
``entry_point``, ``difficulty_scale``), so a folder written by ``qce build qiskit_humaneval`` and
the upstream Hub datasets (``Qiskit/qiskit_humaneval``, ``Qiskit/qiskit_humaneval_hard``) load
the same way.

>>> ds = load("hard", data_dir="path/to/qiskit_humaneval")  # doctest: +SKIP
>>> ds[0]["entry_point"]  # doctest: +SKIP
'create_quantum_circuit'
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

HUB_ID = "Qiskit/qiskit_humaneval"
CONFIGS = ("normal", "hard")
SPLIT = "test"
#: config -> upstream Hub dataset (one ``test`` split each)
HUB_IDS = {"normal": "Qiskit/qiskit_humaneval", "hard": "Qiskit/qiskit_humaneval_hard"}
FIELDS = ("task_id", "prompt", "canonical_solution", "test", "entry_point", "difficulty_scale")

_IBM = "needs IBM Quantum credentials and network (QiskitRuntimeService)"
_AI = "needs IBM Quantum credentials and network (qiskit-ibm-transpiler AI service)"
_DOT = "needs Graphviz (`dot`), not installed"
#: (config, task_id) -> why the canonical solution cannot pass here (qiskit 2.6, no network).
#: tests/humaneval checks this list exactly: an unlisted failure or a listed success fails.
KNOWN_UNRUNNABLE: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Task:
    """One Qiskit HumanEval task of one config."""

    task_id: str
    prompt: str
    canonical_solution: str
    test: str
    entry_point: str
    difficulty_scale: str
    config: str = "normal"


def _config(config: str | None) -> str:
    cfg = config or CONFIGS[0]
    if cfg not in CONFIGS:
        raise ValueError(f"unknown qiskit_humaneval config {cfg!r}; expected one of {CONFIGS}")
    return cfg


def load(config: str | None = None, *, data_dir: Any = None, split: str | None = None):
    """The tasks of ``config`` as a ``datasets.Dataset`` (local folder, else the upstream Hub)."""
    import datasets

    cfg = _config(config)
    if data_dir is None:
        return datasets.load_dataset(HUB_IDS[cfg], split=split or SPLIT)
    folder = Path(data_dir)
    if not (folder / "README.md").is_file():
        raise FileNotFoundError(f"{folder}: not a qiskit_humaneval dataset folder (no README.md)")
    return datasets.load_dataset(str(folder), cfg, split=split or SPLIT)


def task_from_row(row: dict[str, Any], config: str) -> Task:
    """A typed task; ``ValueError`` naming the record when a field is missing or not a string."""
    where = row.get("task_id", "<no task_id>")
    for f in FIELDS:
        if not isinstance(row.get(f), str):
            raise ValueError(f"qiskit_humaneval {config} record {where!r}: field {f!r} "
                             f"missing or not a string")
    return Task(**{f: row[f] for f in FIELDS}, config=config)


def problems(config: str | None = None, *, data_dir: Any = None) -> dict[str, Task]:
    """Tasks of ``config`` by ``task_id``."""
    cfg = _config(config)
    out: dict[str, Task] = {}
    for row in load(cfg, data_dir=data_dir):
        task = task_from_row(row, cfg)
        if task.task_id in out:
            raise ValueError(f"qiskit_humaneval {cfg}: duplicate task_id {task.task_id!r}")
        out[task.task_id] = task
    return out


def get_problem(problem_id: str, *, data_dir: Any = None, config: str | None = None) -> Task:
    """One task. ``problem_id`` may carry the config as a prefix: ``"hard:qiskitHumanEval/3"``."""
    if ":" in problem_id and problem_id.split(":", 1)[0] in CONFIGS:
        config, problem_id = problem_id.split(":", 1)
    tasks = problems(config, data_dir=data_dir)
    if problem_id not in tasks:
        raise KeyError(f"qiskit_humaneval {_config(config)}: no task {problem_id!r}")
    return tasks[problem_id]


def make_judge(**options: Any):
    """The ``check(candidate)`` judge; options: ``time_limit`` (s), ``memory_mb``."""
    from ..judges.qiskit_humaneval import QiskitHumanEvalJudge

    return QiskitHumanEvalJudge(**options)


def prompt(record: Task) -> str:
    """What a model is given: the function stub (normal) or the instruction (hard)."""
    return record.prompt


def reference_code(record: Task) -> str:
    """The complete reference program: stub plus body (normal) or the full solution (hard)."""
    if record.config == "hard":
        return record.canonical_solution
    return record.prompt + record.canonical_solution
