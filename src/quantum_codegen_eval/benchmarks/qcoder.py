"""QCoder (QPC001-QPC005): 67 Qiskit circuit problems with a local four-stage judge.

Configs: ``problems`` (one record per problem, parsed from the statements), ``submissions``
(human submissions, one row per version) and ``revisions`` (a user's versions of one problem in
order, with each verdict and the index of the first AC).

>>> rec = get_problem("QPC002_A5", data_dir="path/to/qcoder")  # doctest: +SKIP
>>> rec.depth_limit, rec.global_phase  # doctest: +SKIP
(6, 'ignored')
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

HUB_ID = "quantum-codegen-eval/qcoder"
CONFIGS = ("problems", "submissions", "revisions")
_SPLITS = {"problems": "test", "submissions": "train", "revisions": "train"}


@dataclass(frozen=True)
class QCoderProblem:
    """One QCoder problem (every field parsed from the upstream statement)."""

    id: str
    contest: str
    statement: str
    problem_statement: str
    template: str
    template_missing: bool
    signature: str
    parameters: list[dict[str, str]]
    return_type: str
    kind: str
    given_circuits: list[str]
    parameter_constraints: list[str]
    parameter_ranges: list[dict[str, Any]]
    depth_limit: int | None
    query_limit_gate: str | None
    query_limit: int | None
    global_phase: str
    little_endian: bool
    banned_gates: list[str]
    registers: list[str]
    num_qubits: str
    samples: list[dict[str, str]]
    hints: str
    allowed_imports: list[str]
    rules: str
    upstream_repo: str
    upstream_commit: str
    upstream_path: str
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> QCoderProblem:
        names = {f.name for f in fields(cls)} - {"extra"}
        missing = names - set(row)
        if missing:
            raise ValueError(f"QCoder record {row.get('id', '?')}: missing field(s) "
                             f"{', '.join(sorted(missing))}")
        return cls(**{k: row[k] for k in names})


def load(config: str | None = None, *, data_dir: Any = None, split: str | None = None):
    """The config as a ``datasets.Dataset`` (local folder ``data_dir``, else the cached build)."""
    from ..datasets_cache import load_folder

    config = config or CONFIGS[0]
    if config not in CONFIGS:
        raise ValueError(f"unknown QCoder config {config!r}; expected one of {CONFIGS}")
    if data_dir is None:
        from ..datasets_cache import dataset_dir

        data_dir = dataset_dir(BENCHMARK)
    return load_folder(data_dir, "qcoder", config, split or _SPLITS[config])


def problems(config: str | None = None, *, data_dir: Any = None) -> dict[str, QCoderProblem]:
    if (config or "problems") != "problems":
        raise ValueError("typed records exist for the 'problems' config only")
    return {r["id"]: QCoderProblem.from_row(r) for r in load("problems", data_dir=data_dir)}


def get_problem(problem_id: str, *, data_dir: Any = None) -> QCoderProblem:
    recs = problems(data_dir=data_dir)
    if problem_id not in recs:
        raise KeyError(f"unknown QCoder problem {problem_id!r} (known: QPC001_A1 ... QPC005_Ex)")
    return recs[problem_id]


def _judge(**options: Any):
    """The QCoder judge (options: ``timeout``, ``memory_mb``, ``seed``, ``first_failure``,
    ``check_timeout``, ``check_memory_mb`` -- the limits of the trusted check stage; ``secret``
    -- mixed into the hidden test values, random by default: fix it to repeat a run exactly)."""
    from ..judges.qcoder import QCoderJudge

    known = {"timeout", "memory_mb", "seed", "first_failure", "check_timeout", "check_memory_mb",
             "secret"}
    unknown = set(options) - known
    if unknown:
        raise ValueError(f"qcoder judge: unknown option(s) {', '.join(sorted(unknown))}")
    return QCoderJudge(**options)


def prompt(record: QCoderProblem) -> str:
    """The QCoder paper's prompt: rules.txt followed by the statement."""
    return record.rules + record.statement


def reference_code(record: QCoderProblem) -> str | None:
    """Our reference solution for the problem (written here; QCoder publishes none)."""
    from ..judges.qcoder.specs import get_spec

    return get_spec(record.id).reference


# ---------------------------------------------------------------- declaration

def features(config: str):
    """The ``datasets.Features`` of a config (the dataset card declares the same)."""
    from datasets import Features, List, Value

    s, i, b = Value("string"), Value("int64"), Value("bool")
    if config == "problems":
        return Features({
            "id": s, "contest": s, "statement": s, "problem_statement": s, "template": s,
            "template_missing": b, "signature": s,
            "parameters": List({"name": s, "annotation": s}), "return_type": s, "kind": s,
            "given_circuits": List(s), "parameter_constraints": List(s),
            "parameter_ranges": List({"name": s, "low": s, "low_strict": b, "high": s,
                                      "high_strict": b, "constraint": s}),
            "depth_limit": i, "query_limit_gate": s, "query_limit": i, "global_phase": s,
            "little_endian": b, "banned_gates": List(s), "registers": List(s), "num_qubits": s,
            "samples": List({"input": s, "output": s}), "hints": s, "allowed_imports": List(s),
            "rules": s, "upstream_repo": s, "upstream_commit": s, "upstream_path": s,
        })
    if config == "submissions":
        return Features({"problem": s, "user": s, "submission_order": i, "version_index": i,
                         "result": s, "code": s, "extracted_code": s})
    if config == "revisions":
        return Features({"problem": s, "user": s, "num_versions": i,
                         "submission_orders": List(i), "results": List(s), "codes": List(s),
                         "first_ac_index": i})
    raise ValueError(f"unknown QCoder config {config!r}; expected one of {CONFIGS}")


def judged_code(completion: str) -> str:
    """The code the judge judges in ``completion``: the benchmark's extraction rule (the
    builder records it for submissions; no code: ``""``)."""
    return BENCHMARK.extract(completion) or ""


def _declare():
    from .base import Benchmark, FeedbackWording, extract_last_block

    return Benchmark(
        name="qcoder", description="QCoder QPC001-QPC005 circuit problems (Qiskit)",
        module=__name__, hub_id=HUB_ID, configs=CONFIGS, splits=_SPLITS,
        record_type=QCoderProblem, record_configs=("problems",), features=features,
        language=lambda config: "qiskit", group_by="contest", group=lambda r: r.contest,
        prompt=prompt, reference=reference_code,
        reference_kind=lambda r: "reference solution (written for this package)",
        # the QCoder paper's judge takes the last code block of an answer
        extract=extract_last_block, judge=_judge,
        feedback=FeedbackWording(list_failed_tests=False, run_hint="Make sure solve() exists, "
                                 "runs, and returns the right type."),
        builder="quantum_codegen_eval.loaders.qcoder")


BENCHMARK = _declare()


def make_judge(**options: Any):
    """The benchmark's judge, with its extraction rule (``Benchmark.make_judge``); options as
    for ``_judge``."""
    return BENCHMARK.make_judge(**options)
