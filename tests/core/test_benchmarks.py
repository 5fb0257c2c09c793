"""Every declared benchmark is complete, and the rooms read declarations, not names."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from quantum_codegen_eval.benchmarks import benchmark_module
from quantum_codegen_eval.benchmarks.base import (
    Benchmark,
    UnknownBenchmark,
    builders,
    get,
    missing_fields,
    origin,
    registry,
)

SRC = Path(__file__).resolve().parents[2] / "src" / "quantum_codegen_eval"
BENCHES = sorted(registry())


def test_the_registry_finds_every_benchmark_module():
    declared = {p.stem for p in (SRC / "benchmarks").glob("[!_]*.py")} - {"base"}
    assert {n for n in BENCHES if origin(n).kind == "built-in"} == declared  # + any plugin


@pytest.mark.parametrize("name", BENCHES)
def test_declaration_is_complete(name):
    bench = get(name)
    assert missing_fields(bench) == []
    assert bench.loader is benchmark_module(name)
    for attr in ("load", "problems", "get_problem"):
        assert callable(getattr(bench.loader, attr)), attr
    for config in bench.configs:
        assert bench.language(config) in ("pennylane", "qiskit", "python")
    if bench.builder:
        mod = __import__(bench.builder, fromlist=["build"])
        assert callable(mod.build)
    assert bench.feedback.run_hint.strip()


@pytest.mark.parametrize("name", BENCHES)
def test_records_and_features_are_one_schema(name):
    bench = get(name)
    for config in bench.record_configs:
        columns = set(bench.features(config))
        fields = {f.name: f for f in dataclasses.fields(bench.record_type)}
        required = {n for n, f in fields.items() if f.default is dataclasses.MISSING
                    and f.default_factory is dataclasses.MISSING}
        assert required <= columns, f"{name}/{config}: record fields not in the data: " \
                                    f"{sorted(required - columns)}"
        if bench.builder:  # the builder writes exactly the record
            assert columns <= set(fields), f"{name}/{config}: columns the record drops: " \
                                           f"{sorted(columns - set(fields))}"


def test_aliases_and_unknown_names():
    assert get("HumanEval").name == get("qiskit-humaneval").name == "qiskit_humaneval"
    assert get("pennysynth-13k").name == "pennysynth"
    with pytest.raises(UnknownBenchmark, match="known: .*qcoder"):
        get("nope")
    with pytest.raises(UnknownBenchmark, match="known: all, 2022"):
        get("qhack").check_config("2021")
    aliases = [a for b in registry().values() for a in (b.name, *b.aliases)]
    assert len(aliases) == len(set(aliases))


def test_builders_come_from_the_declarations():
    found = builders()
    assert {b.name for b in registry().values() if b.builder} <= set(found)
    assert "pennylane_api_index" in found  # a loader that is not a benchmark


def test_no_benchmark_without_a_judge_can_be_judged():
    from quantum_codegen_eval.benchmarks.base import NoJudge

    with pytest.raises(NoJudge, match="pennysynth has no judge"):
        get("pennysynth").make_judge()


def test_the_other_rooms_hold_no_benchmark_names():
    # "sample" is also a field name ("sample": 0), so the bundled sample is left out here
    names = [n for b in registry().values() for n in (b.name, *b.aliases) if n != "sample"]
    pattern = re.compile(r"""["']({})["']""".format("|".join(map(re.escape, names))))
    for room in ("cli.py", "report.py", "scoring.py", "feedback.py", "evaluate.py",
                 "execution/sandbox.py", "execution/_worker.py", "execution/store.py"):
        text = "\n".join(line for line in (SRC / room).read_text().splitlines()
                         if not line.lstrip().startswith(">>>"))  # doctest examples may
        assert not pattern.search(text), f"{room} names a benchmark: {pattern.search(text)[0]}"


def test_one_extraction_rule_per_benchmark_reaches_the_metrics():
    from quantum_codegen_eval.predictions import Sample
    from quantum_codegen_eval.scoring import candidate_codes

    answer = "draft:\n```python\na = 1\n```\nfinal:\n```python\nb = 2\n```\n"
    qcoder = get("qcoder")
    sample = Sample("P", 0, answer)
    assert candidate_codes(qcoder, [sample], {"P": object()}) == {"P#0": "b = 2\n"}
    assert candidate_codes(get("qhack"), [sample], {"P": object()}) == {"P#0": "a = 1\n\nb = 2\n"}
    assert isinstance(qcoder, Benchmark)


def test_qhack_similarity_is_labelled_as_against_the_template():
    from quantum_codegen_eval.benchmarks.qhack import QHackChallenge
    from quantum_codegen_eval.predictions import read_predictions
    from quantum_codegen_eval.scoring import score, summarise
    from quantum_codegen_eval.verdict import Verdict

    names = [f.name for f in dataclasses.fields(QHackChallenge) if f.default is dataclasses.MISSING]
    row = {n: "" for n in names} | {"id": "2023/x", "year": 2023, "points": 100, "chunks": [],
                                    "solution_functions": ["f"], "tests": [], "time_limit": 1.0,
                                    "template": "import pennylane as qml\n\ndef f(x):\n    return x\n"}
    record = QHackChallenge(**row)
    qhack = get("qhack")
    assert qhack.reference(record) == record.template
    assert qhack.reference_kind(record) == "template"
    samples = read_predictions({"2023/x": ["```python\ndef f(x):\n    return 2 * x\n```"]})
    scores = score(qhack, "2023", samples, {"2023/x": record}, ("rouge_l",))
    assert scores.reference_kinds == {"template": 1}
    report = summarise(bench=qhack, config="2023", samples=samples,
                       verdicts={"2023/x#0": Verdict("qhack", "2023/x", "WA")},
                       problems={"2023/x": record}, scores=scores, k=(1,),
                       metrics=("pass@k", "rouge_l"), seconds=0.0)
    md = report.to_markdown()
    assert "## Code similarity to the template" in md and "not a solution" in md
    assert "| year | problems |" in md
    assert report.summary["similarity_reference"] == {"template": 1}
