"""The provenance of a run: what each judge signs, where the environments and upstream facts come
from, the rendering, and what counts as a difference."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from quantum_codegen_eval import __version__, run_provenance
from quantum_codegen_eval.benchmarks.base import get
from quantum_codegen_eval.judges.qcoder import QCoderJudge
from quantum_codegen_eval.judges.qhack import QHackJudge
from quantum_codegen_eval.judges.qiskit_humaneval import QiskitHumanEvalJudge
from quantum_codegen_eval.provenance import (
    Environment,
    JudgeSignature,
    Provenance,
    ProvenanceError,
    RunFacts,
    signature_differences,
)


def _sig(**kw) -> JudgeSignature:
    base = JudgeSignature("qhack", "2023", {"env": "era", "time_scale": 1.0},
                          (Environment("qhack-2023", "3.11", "0.28.0", "", "era"),),
                          ("efc516ac412dc351",), "0123456789abcdef", "0.1.0")
    return replace(base, **kw)


def test_signature_string_and_round_trip():
    sig = _sig()
    assert sig.render() == ("qhack|cfg:2023|judge:env=era,time_scale=1|env:qhack-2023(py3.11,"
                            "pl0.28.0)|src:efc516a|manifest:0123456789abcdef|qce:0.1.0")
    prov = Provenance(sig, RunFacts("2026-01-01T00:00:00+00:00", 1.5, 2, "Linux", "3.11.2"))
    again = Provenance.from_dict(json.loads(json.dumps(prov.to_dict())))
    assert again == prov and prov.to_dict()["signature_string"] == sig.render()


def test_differences_name_each_part():
    a = _sig()
    assert signature_differences(a, a) == []
    b = _sig(environments=(Environment("qhack-2023", "3.9", "0.28.0", "", "fallback"),),
             package="0.2.0", judge={"env": "era", "time_scale": 2.0})
    diffs = signature_differences(a, b)
    assert "judge options time_scale=1 vs time_scale=2" in diffs
    assert "environment qhack-2023(py3.11,pl0.28.0) vs qhack-2023(py3.9,pl0.28.0,fallback)" in diffs
    assert "package version 0.1.0 vs 0.2.0" in diffs and len(diffs) == 3


def test_missing_or_broken_provenance_is_one_clear_error():
    with pytest.raises(ProvenanceError, match="has no provenance"):
        Provenance.from_dict(None, "old/report.json")
    with pytest.raises(ProvenanceError, match="unreadable provenance"):
        Provenance.from_dict({"signature": {}}, "x/report.json")


def test_each_judge_signs_its_verdict_options():
    assert QHackJudge(env="current", time_scale=2.0).signature()["time_scale"] == 2.0
    assert QHackJudge(env="current").signature()["env"] == "current"
    q = QCoderJudge(seed=7, secret="do-not-publish").signature()
    assert q["seed"] == 7 and "do-not-publish" not in json.dumps(q)
    assert QiskitHumanEvalJudge(time_limit=12.0, seed=3).signature() == {
        "time_limit": 12.0, "memory_mb": 4096, "seed": 3, "hash_seed": 3}


def test_era_environments_come_from_their_stamps():
    bench = get("qhack")
    rows = {row["name"]: row for row in bench.loader.environments().list_envs()}
    if not rows["qhack-2023"]["ready"]:
        pytest.skip("qhack-2023 environment not built here")
    stamp = rows["qhack-2023"]["built"]
    (env,) = run_provenance.environments(bench, {"env": "era"}, [{"era_env": "qhack-2023"}] * 3)
    assert env.name == "qhack-2023" and env.python == stamp["python_version"]
    assert env.pennylane == "0.28.0"
    # current mode (or a forced interpreter): this interpreter
    (cur,) = run_provenance.environments(bench, {"env": "current"}, [{"era_env": "qhack-2023"}])
    assert cur == run_provenance.current_environment() and cur.name == "current"


def test_upstream_facts():
    bench = get("qhack")
    pinned, manifest = run_provenance.upstream_facts(bench, [])
    assert "efc516ac412dc351ae8bf9745e304717b81d1ff3" in pinned and len(manifest) == 16
    records = [{"upstream_commit": "efc516ac412dc351ae8bf9745e304717b81d1ff3"}]
    assert run_provenance.upstream_facts(bench, records) == (
        ("efc516ac412dc351ae8bf9745e304717b81d1ff3",), manifest)
    assert run_provenance.upstream_facts(get("sample"), []) == ((), "")  # bundled: no manifest


def test_collect_reads_the_package_version_once():
    bench = get("sample")
    judge = bench.make_judge()
    records = bench.loader.problems("qiskit")
    prov = run_provenance.collect(bench=bench, config="qiskit", judge=judge, records=records,
                                  judged=list(records), started=0.0, seconds=1.0, workers=None,
                                  data="package")
    assert prov.signature.package == __version__
    assert prov.signature.judge == judge.signature()
    assert prov.run.started == "1970-01-01T00:00:00+00:00"


class _BrokenSignature(QiskitHumanEvalJudge):
    def signature(self):
        raise RuntimeError("no signature today")


def test_a_provenance_failure_never_loses_the_run(tmp_path, capsys):
    from quantum_codegen_eval import evaluate

    rows = [{"id": "sample/qk_bell_circuit", "completion": ""}]  # FORMAT: decided without a run
    report = evaluate(rows, "sample", "qiskit", k=(1,), judge=_BrokenSignature(),
                      store=tmp_path / "r.jsonl", metrics=("pass@k", "errors"))
    assert report.provenance is None and report.per_sample[0]["status"] == "FORMAT"
    assert "no provenance for this run (RuntimeError: no signature today)" in capsys.readouterr().err
    assert not (tmp_path / "r.jsonl.provenance.json").exists()
    ok = evaluate(rows, "sample", "qiskit", k=(1,), store=tmp_path / "s.jsonl",
                  metrics=("pass@k", "errors"))
    assert ok.provenance is not None and (tmp_path / "s.jsonl.provenance.json").is_file()
