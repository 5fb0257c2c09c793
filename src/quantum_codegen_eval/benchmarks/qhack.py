"""QHack 2022–2024 coding challenges (74 records; configs ``all``, ``2022``, ``2023``, ``2024``).

>>> probs = problems("2023", data_dir="path/to/qhack")  # doctest: +SKIP
>>> rec = get_problem("2023/tutorial_1", data_dir="path/to/qhack")  # doctest: +SKIP
>>> rec.solution_functions  # doctest: +SKIP
['add_numbers']
>>> verdict = judge_one(make_judge(), rec, completion)  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

HUB_ID = "quantum-codegen-eval/qhack"
CONFIGS = ("all", "2022", "2023", "2024")
SPLIT = "test"


@dataclass
class QHackChallenge:
    """One challenge (the fields of the dataset; see dataset_cards/qhack/README.md)."""

    id: str
    year: int
    name: str
    title: str
    category: str
    points: int
    statement: str
    template: str
    harness: str
    driver: str
    chunks: list[dict[str, str]]
    solution_functions: list[str]
    tests: list[dict[str, str]]
    tolerance: str
    compare: str
    time_limit: float
    format: str
    pennylane_version: str
    era_env: str
    upstream_repo: str = ""
    upstream_commit: str = ""
    upstream_path: str = ""
    template_file: str = ""
    points_source: str = ""
    time_limit_source: str = ""
    contest_time_limit: float | None = None
    weak_check: str = ""
    check_trust: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> QHackChallenge:
        names = {f.name for f in fields(cls)} - {"extra"}
        missing = [n for n in ("id", "chunks", "tests", "format") if n not in row]
        if missing:
            raise ValueError(f"QHack record {row.get('id', '?')!r} lacks field(s) {missing}")
        known = {k: v for k, v in row.items() if k in names}
        return cls(**known, extra={k: v for k, v in row.items() if k not in names})


def load(config: str | None = None, *, data_dir: Any = None, split: str | None = None):
    """The dataset (``datasets.Dataset``) of ``config`` from ``data_dir``, else the cached build."""
    from ..datasets_cache import load_folder

    cfg = config or CONFIGS[0]
    if cfg not in CONFIGS:
        raise ValueError(f"unknown QHack config {cfg!r}; known: {', '.join(CONFIGS)}")
    if data_dir is None:
        from ..datasets_cache import dataset_dir

        data_dir = dataset_dir(BENCHMARK)
    return load_folder(data_dir, "qhack", cfg, split or SPLIT)


def problems(config: str | None = None, *, data_dir: Any = None) -> dict[str, QHackChallenge]:
    """Typed records by id."""
    return {row["id"]: QHackChallenge.from_row(row) for row in load(config, data_dir=data_dir)}


def get_problem(problem_id: str, *, data_dir: Any = None) -> QHackChallenge:
    """One record by id, e.g. ``"2023/tutorial_1"`` (the year config is loaded)."""
    year = problem_id.split("/", 1)[0]
    if year not in CONFIGS[1:] or "/" not in problem_id:
        raise KeyError(f"QHack ids look like '2023/tutorial_1'; got {problem_id!r}")
    probs = problems(year, data_dir=data_dir)
    if problem_id not in probs:
        raise KeyError(f"no QHack challenge {problem_id!r} in config {year}")
    return probs[problem_id]


def environments():
    """The era environments' manager (``list_envs``, ``create_env``, ``env_python``,
    ``remove_env``): what ``qce env`` drives for the names in ``BENCHMARK.environments``."""
    from . import _qhack_envs

    return _qhack_envs


def _judge(env: str = "era", **options: Any):
    """The QHack judge (``env``: ``"era"`` or ``"current"``; options: ``time_scale`` multiplies
    every time limit, ``python``, ``memory_mb``, ``shims``; see judges/qhack/judge.py)."""
    from ..judges.qhack import QHackJudge
    from ._qhack_envs import env_python

    options.setdefault("env_python", lambda name: env_python(name, create=True))
    return QHackJudge(env=env, **options)


def prompt(record: QHackChallenge) -> str:
    """Statement plus template, with the instruction to complete the marked functions."""
    funcs = ", ".join(f"`{n}`" for n in record.solution_functions)
    return (f"{record.statement.strip()}\n\n"
            f"Complete the following template (PennyLane {record.pennylane_version}). Write the "
            f"function(s) {funcs}; do not change the code marked as not editable.\n\n"
            f"```python\n{record.template.rstrip()}\n```\n")


def reference_code(record: QHackChallenge) -> str:
    """The challenge template. No official solutions were published, so, as the PennySynth
    paper does, CodeBLEU and ROUGE-L on QHack compare a completion with the template it
    completes (a measure of how much of the given structure it keeps, not of correctness)."""
    return record.template


# ---------------------------------------------------------------- declaration

def _reference(record: QHackChallenge) -> str:
    """A reference solution where the record has one, else the template (see reference_code)."""
    return getattr(record, "reference_solution", None) or record.template


def _reference_kind(record: QHackChallenge) -> str:
    return "reference solution" if getattr(record, "reference_solution", None) else "template"


#: the dataset's columns (``datasets`` type names; lists of one element are sequences)
FEATURES: dict[str, Any] = {
    "id": "string", "year": "int32", "name": "string", "title": "string", "category": "string",
    "points": "int32", "points_source": "string", "statement": "string", "template": "string",
    "harness": "string", "driver": "string",
    "chunks": [{"kind": "string", "name": "string", "code": "string"}],
    "solution_functions": ["string"],
    "tests": [{"name": "string", "input": "string", "expected": "string"}],
    "tolerance": "string", "compare": "string", "time_limit": "float64",
    "time_limit_source": "string", "contest_time_limit": "float64", "weak_check": "string", "check_trust": "string", "format": "string", "pennylane_version": "string",
    "era_env": "string", "upstream_repo": "string", "upstream_commit": "string",
    "upstream_path": "string", "template_file": "string",
}


def features(config: str | None = None):
    """The ``datasets.Features`` of every config (the builder writes them, the card declares
    them)."""
    import datasets

    def conv(spec):
        if isinstance(spec, list):
            return [conv(spec[0])]
        if isinstance(spec, dict):
            return {k: conv(v) for k, v in spec.items()}
        return datasets.Value(spec)

    return datasets.Features({k: conv(v) for k, v in FEATURES.items()})


def check_trust(record: Any) -> str:
    """How far the judge trusts a challenge's check (``data``, ``circuit`` or ``live``; the
    builder records it): the judge's rule, judges.qhack.checks."""
    from ..judges.qhack.checks import check_trust as trust

    return trust(record)


def _declare():
    from .base import Benchmark, FeedbackWording, extract_all_blocks

    return Benchmark(
        name="qhack", description="QHack 2022-2024 coding challenges (PennyLane)",
        module=__name__, hub_id=HUB_ID, configs=CONFIGS, splits=dict.fromkeys(CONFIGS, SPLIT),
        record_type=QHackChallenge, record_configs=CONFIGS, features=features,
        language=lambda config: "pennylane", group_by="year", group=lambda r: str(r.year),
        subgroup_by="category", subgroup=lambda r: r.category or "uncategorised",
        prompt=prompt, reference=_reference, reference_kind=_reference_kind,
        extract=extract_all_blocks, judge=_judge,
        feedback=FeedbackWording(run_hint="Make sure the functions you complete run in the "
                                 "given template and return what it expects."),
        builder="quantum_codegen_eval.loaders.qhack",
        environments=("qhack-2022", "qhack-2023", "qhack-2024"))


BENCHMARK = _declare()


def make_judge(env: str = "era", **options: Any):
    """The benchmark's judge, with its extraction rule (``Benchmark.make_judge``); options as
    for ``_judge``."""
    return BENCHMARK.make_judge(env=env, **options)
