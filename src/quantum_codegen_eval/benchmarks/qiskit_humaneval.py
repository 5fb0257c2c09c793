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
from typing import Any

HUB_ID = "Qiskit/qiskit_humaneval"
CONFIGS = ("normal", "hard")
SPLIT = "test"
FIELDS = ("task_id", "prompt", "canonical_solution", "test", "entry_point", "difficulty_scale")

_IBM = "needs IBM Quantum credentials and network (QiskitRuntimeService account)"
_REASONS = {
    29: "needs the Graphviz binaries (`dot`) for plot_coupling_map; not installed",
    43: _IBM, 97: _IBM, 98: _IBM, 133: _IBM, 134: _IBM, 146: _IBM,
    46: "qiskit>=2 removed qiskit.synthesis.linear.linear_matrix_utils (ModuleNotFoundError)",
    103: "expected list is the ECR fake backends of qiskit-ibm-runtime 0.45; 0.51 adds "
         "FakeBrussels and FakeStrasbourg (AssertionError)",
    104: "expected cost 197 depends on the transpiler release; qiskit 2.6 gives 273 (AssertionError)",
    122: "needs the qiskit-ibm-transpiler AI service: IBM Quantum credentials and network "
         "(package not installed)",
    123: "needs the Graphviz binaries (`dot`) for plot_error_map; not installed",
    129: "needs IBM Quantum credentials and network; also uses the retired channel "
         "'ibm_quantum' (ValueError on qiskit-ibm-runtime 0.51)",
}
#: (config, task_id) -> why the canonical solution cannot pass here (qiskit 2.6,
#: qiskit-ibm-runtime 0.51, no network, no credentials, no Graphviz). The same in both configs.
#: tests/humaneval checks this list exactly: an unlisted failure or a listed success fails.
KNOWN_UNRUNNABLE: dict[tuple[str, str], str] = {
    (cfg, f"qiskitHumanEval/{n}"): why for cfg in ("normal", "hard")
    for n, why in _REASONS.items()}
#: (config, task_id) -> CPU seconds: canonical solutions that pass but need more than the default
#: time limit here (Solovay-Kitaev basic approximations ~30 CPU s; tasks 110 and 138 are unseeded
#: random searches
#: whose run time varies, ~15 CPU s on average).
KNOWN_SLOW: dict[tuple[str, str], float] = {
    (cfg, f"qiskitHumanEval/{n}"): 120.0 for cfg in ("normal", "hard") for n in (100, 110, 138)}


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
    #: how the judge reaches the candidate: ``proxy`` (check() in a trusted process, the candidate
    #: behind a proxy) or ``proxy_unsupported`` (a return value that cannot cross as data)
    check_mode: str = "proxy"
    #: why the task cannot pass in this environment (``KNOWN_UNRUNNABLE``), else empty: its
    #: non-AC verdicts are judge errors, the report flags it and gives pass@k without it
    unrunnable: str = ""


def _config(config: str | None) -> str:
    cfg = config or CONFIGS[0]
    if cfg not in CONFIGS:
        raise ValueError(f"unknown qiskit_humaneval config {cfg!r}; expected one of {CONFIGS}")
    return cfg


def load(config: str | None = None, *, data_dir: Any = None, split: str | None = None):
    """The tasks of ``config`` as a ``datasets.Dataset`` (local folder, else the cached build)."""
    from ..datasets_cache import load_folder

    cfg = _config(config)
    if data_dir is None:
        from ..datasets_cache import dataset_dir

        data_dir = dataset_dir(BENCHMARK)
    return load_folder(data_dir, "qiskit_humaneval", cfg, split or SPLIT)


def task_from_row(row: dict[str, Any], config: str) -> Task:
    """A typed task; ``ValueError`` naming the record when a field is missing or not a string."""
    where = row.get("task_id", "<no task_id>")
    for f in FIELDS:
        if not isinstance(row.get(f), str):
            raise ValueError(f"qiskit_humaneval {config} record {where!r}: field {f!r} "
                             f"missing or not a string")
    mode = row.get("check_mode") or "proxy"
    return Task(**{f: row[f] for f in FIELDS}, config=config, check_mode=str(mode),
                unrunnable=str(row.get("unrunnable") or unrunnable_reason(row["task_id"])))


def unrunnable_reason(task_id: str) -> str:
    """Why ``task_id``'s canonical solution cannot pass here (``KNOWN_UNRUNNABLE``), or ``""``."""
    from ..judges.qiskit_humaneval.modes import task_number

    return _REASONS.get(task_number(task_id), "")


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


def _judge(**options: Any):
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


def candidate_code(record: Task, code: str) -> str:
    """The program text a metric compares with ``reference_code``: what the judge runs with
    the completion's ``code``, less the test (so a body-only completion is seen with its
    prompt, imports included)."""
    from ..judges.qiskit_humaneval import build_program

    program = build_program(record, code)
    cut = program.rfind(record.test.rstrip("\n"))
    return (program[:cut] if cut >= 0 else program).rstrip() + "\n"


# ---------------------------------------------------------------- declaration

def features(config: str | None = None):
    """The ``datasets.Features`` of every config (the builder writes them, the card declares
    them). Not upstream: ``check_mode``, how the judge checks the task, and ``unrunnable``, why
    it cannot pass here (``KNOWN_UNRUNNABLE``)."""
    import datasets

    return datasets.Features({f: datasets.Value("string")
                              for f in (*FIELDS, "check_mode", "unrunnable")})


def check_mode(task: Any) -> str:
    """How the judge checks ``task`` (the builder records it; judges.qiskit_humaneval.modes)."""
    from ..judges.qiskit_humaneval import check_mode as mode

    return mode(task)


def _declare():
    from .base import Benchmark, FeedbackWording, extract_all_blocks

    return Benchmark(
        name="qiskit_humaneval", description="Qiskit HumanEval, normal and hard (Qiskit)",
        module=__name__, hub_id=HUB_ID, configs=CONFIGS, splits=dict.fromkeys(CONFIGS, SPLIT),
        record_type=Task, record_configs=CONFIGS, features=features,
        language=lambda config: "qiskit", group_by="difficulty",
        group=lambda r: r.difficulty_scale or "all", prompt=prompt, reference=reference_code,
        reference_kind=lambda r: "canonical solution", extract=extract_all_blocks,
        candidate=candidate_code, judge=_judge,
        feedback=FeedbackWording(run_hint="Make sure the function runs and passes check()."),
        builder="quantum_codegen_eval.loaders.qiskit_humaneval",
        aliases=("qiskit-humaneval", "humaneval"))


BENCHMARK = _declare()


def make_judge(**options: Any):
    """The benchmark's judge, with its extraction rule (``Benchmark.make_judge``); options as
    for ``_judge``."""
    return BENCHMARK.make_judge(**options)
