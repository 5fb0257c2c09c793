"""Quantum Katas in Qiskit (cbjuan/QuantumKatas, MIT, Microsoft's QuantumKatas): 350 tasks.

Records keep the upstream fields (``task_id``, ``prompt``, ``canonical_solution``, ``test``,
``entry_point``) and add ``category``, the part of ``task_id`` before the first ``/``
(``BasicGates/1.1`` -> ``BasicGates``): 26 categories, what the report groups pass@k by. A
completion is a whole program (upstream's canonical solutions are: imports and the function).

>>> category("tutorials/Oracles/2.1")
'tutorials'
>>> ds = load(data_dir="path/to/quantum_katas")  # doctest: +SKIP
>>> ds[0]["entry_point"]  # doctest: +SKIP
'state_flip'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

HUB_ID = "quantum-codegen-eval/quantum_katas"
CONFIGS = ("default",)
SPLIT = "test"
FIELDS = ("task_id", "prompt", "canonical_solution", "test", "entry_point")
#: task_id -> how upstream's own runner (``benchmark/evaluator.py``) fails the canonical solution
#: (timing/quantum_katas.py runs it); every other canonical solution passes there and is AC here
UPSTREAM_FAILURES: dict[str, str] = {
    "GroversAlgorithm/2.2": "NameError: name 'np' is not defined",
    "Superposition/2.3": "NameError: name 'ClassicalRegister' is not defined",
    "CHSHGame/2.2": "NameError: name 'ClassicalRegister' is not defined",
    "GHZGame/2.2": "NameError: name 'ClassicalRegister' is not defined",
    "GHZGame/2.3": "NameError: name 'ClassicalRegister' is not defined",
    "KeyDistribution_BB84/3.1": "NameError: name 'ClassicalRegister' is not defined",
    "Teleportation/1.5": "NameError: name 'QuantumRegister' is not defined",
    "GraphColoring/9": "CircuitError: 'duplicate bit arguments'",
    "MarkingOracles/3": "AssertionError: State |00⟩ should be marked",
    "PhaseEstimation/7": "AssertionError: Estimated ..., expected ~1.5707963267948966",
    "QEC_BitFlipCode/9": "AssertionError: No error should be detected for |111⟩",
    "UnitaryPatterns/13": "AssertionError: Expected [0.70710678+0.j 0.+0.70710678j], got ...",
}


@dataclass(frozen=True)
class Task:
    """One Quantum Katas task."""

    task_id: str
    prompt: str
    canonical_solution: str
    test: str
    entry_point: str
    category: str


def category(task_id: str) -> str:
    """The task's category: ``task_id`` up to its first ``/``."""
    return str(task_id).split("/", 1)[0]


def _config(config: str | None) -> str:
    cfg = config or CONFIGS[0]
    if cfg not in CONFIGS:
        raise ValueError(f"unknown quantum_katas config {cfg!r}; expected one of {CONFIGS}")
    return cfg


def load(config: str | None = None, *, data_dir: Any = None, split: str | None = None):
    """The tasks as a ``datasets.Dataset`` (local folder, else the cached build)."""
    from ..datasets_cache import load_folder

    cfg = _config(config)
    if data_dir is None:
        from ..datasets_cache import dataset_dir

        data_dir = dataset_dir(BENCHMARK)
    return load_folder(data_dir, "quantum_katas", cfg, split or SPLIT)


def task_from_row(row: dict[str, Any]) -> Task:
    """A typed task; ``ValueError`` naming the record when a field is missing or not a string."""
    where = row.get("task_id", "<no task_id>")
    for f in FIELDS:
        if not isinstance(row.get(f), str):
            raise ValueError(f"quantum_katas record {where!r}: field {f!r} missing or not a "
                             "string")
    if not row["entry_point"].isidentifier():
        raise ValueError(f"quantum_katas record {where!r}: entry_point "
                         f"{row['entry_point'][:80]!r} is not a Python name")
    return Task(**{f: row[f] for f in FIELDS}, category=category(row["task_id"]))


def problems(config: str | None = None, *, data_dir: Any = None) -> dict[str, Task]:
    """Tasks by ``task_id``."""
    out: dict[str, Task] = {}
    for row in load(config, data_dir=data_dir):
        task = task_from_row(row)
        if task.task_id in out:
            raise ValueError(f"quantum_katas: duplicate task_id {task.task_id!r}")
        out[task.task_id] = task
    return out


def get_problem(problem_id: str, *, data_dir: Any = None, config: str | None = None) -> Task:
    """One task, e.g. ``"BasicGates/1.1"``."""
    tasks = problems(config, data_dir=data_dir)
    if problem_id not in tasks:
        raise KeyError(f"quantum_katas: no task {problem_id!r}")
    return tasks[problem_id]


def _judge(**options: Any):
    """The function-test judge (its ``test_*`` functions in a trusted process); options:
    ``time_limit`` (CPU s per job), ``memory_mb``."""
    from ..judges.quantum_katas import QuantumKatasJudge

    return QuantumKatasJudge(**options)


def prompt(record: Task) -> str:
    """What a model is given: the upstream prompt (the task as comments, imports, the stub)."""
    return record.prompt


def reference_code(record: Task) -> str:
    """The canonical solution: a complete program, as a completion is."""
    return record.canonical_solution


# ---------------------------------------------------------------- declaration

def features(config: str | None = None):
    """The ``datasets.Features`` (the builder writes them, the card declares them): the
    upstream fields and ``category``."""
    import datasets

    return datasets.Features({f: datasets.Value("string") for f in (*FIELDS, "category")})


def _declare():
    from .base import Benchmark, FeedbackWording, extract_all_blocks

    return Benchmark(
        name="quantum_katas", description="Quantum Katas translated to Qiskit (350 tasks)",
        module=__name__, hub_id=HUB_ID, configs=CONFIGS, splits=dict.fromkeys(CONFIGS, SPLIT),
        record_type=Task, record_configs=CONFIGS, features=features,
        language=lambda config: "qiskit", group_by="category", group=lambda r: r.category,
        prompt=prompt, reference=reference_code,
        reference_kind=lambda r: "canonical solution", extract=extract_all_blocks,
        judge=_judge,
        feedback=FeedbackWording(run_hint="Make sure the program defines the function and that "
                                 "it runs and passes the tests."),
        builder="quantum_codegen_eval.loaders.quantum_katas",
        aliases=("quantum-katas", "katas"))


BENCHMARK = _declare()


def make_judge(**options: Any):
    """The benchmark's judge, with its extraction rule (``Benchmark.make_judge``); options as
    for ``_judge``."""
    return BENCHMARK.make_judge(**options)
