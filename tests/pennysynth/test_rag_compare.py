"""The run and its comparison: evaluate records the retrieval settings of predictions made from
RAG prompts, and compare of a plain run against a RAG run gives the with-vs-without table and
the error-class shift."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from quantum_codegen_eval.benchmarks import sample
from quantum_codegen_eval.compare import compare
from quantum_codegen_eval.compare._runs import ProblemCounts, Run
from quantum_codegen_eval.metrics.paired import paired_difference
from quantum_codegen_eval.provenance import Environment, JudgeSignature, Provenance, RunFacts
from quantum_codegen_eval.rag import rag_prompts, retrieval_facts, sidecar

SAMPLE = Path(__file__).parent / "data" / "sample.jsonl"


def _run(label: str, correct: dict[str, int], errors: dict[str, int], retrieval=None) -> Run:
    sig = JudgeSignature("qhack", "all", {}, (Environment("current"),), (), "", "0.1.0")
    prov = Provenance(sig, RunFacts("2026-01-01T00:00:00+00:00", 1.0, 1, "linux", "3.11"),
                      {"retrieval": retrieval} if retrieval else {})
    problems = {pid: ProblemCounts(pid, pid.split("/")[0], 5, c, {}) for pid, c in correct.items()}
    return Run(label, label, "report", "qhack", "all", "year", problems, errors,
               sum(errors.values()), {}, prov)


RAG = {"source": "rows", "prompts": 4, "fallbacks": 1,
       "settings": {"retriever": "bm25", "top_k": 5, "threshold": 0.6, "corpus": "c",
                    "corpus_entries": 9}}


def test_with_vs_without_retrieval_table():
    pids = ["2022/a", "2022/b", "2023/a", "2023/b", "2023/c"]
    plain = _run("plain", dict(zip(pids, [0, 1, 2, 0, 5], strict=True)), {"syntax": 3, "runtime": 9})
    rag = _run("rag", dict(zip(pids, [2, 1, 4, 1, 5], strict=True)), {"syntax": 1, "runtime": 4},
               RAG)
    cmp = compare([plain, rag], n_boot=200)
    table = cmp.tables["retrieval"]
    by = {(r[1], r[2]): r for r in table.rows}
    assert set(by) == {(g, k) for g in ("2022", "2023", "all") for k in (1, 5)}
    row = by[("all", 1)]
    a = [c / 5 for c in (2, 1, 4, 1, 5)]  # pass@1 per problem: correct / n
    b = [c / 5 for c in (0, 1, 2, 0, 5)]
    assert row[3] == 5 and row[4] == pytest.approx(np.mean(b)) and row[5] == pytest.approx(np.mean(a))
    ref = paired_difference(a, b, n_boot=200, seed=0)
    assert row[6].value == pytest.approx(np.mean(a) - np.mean(b))
    assert (row[6].low, row[6].high, row[7]) == pytest.approx((ref.low, ref.high, ref.test.p_value))
    assert "rag: bm25 top-5 τ=0.6" in "\n".join(table.notes)
    shift = {r[1]: r for r in cmp.tables["error_shift"].rows}
    assert shift["syntax"][3] == pytest.approx(3 / 12) and shift["syntax"][5] == pytest.approx(1 / 5)
    assert shift["runtime"][6] == pytest.approx(4 / 5 - 9 / 12)


def test_no_retrieval_table_between_plain_runs():
    pids = {"2022/a": 1, "2023/a": 2}
    cmp = compare([_run("x", pids, {"runtime": 1}), _run("y", pids, {"runtime": 2})], n_boot=50)
    assert "retrieval" not in cmp.tables and "error_shift" not in cmp.tables


def test_retrieval_facts_from_the_sidecar_or_the_rows(tmp_path):
    made = rag_prompts("sample", SAMPLE, config="pennylane", threshold=0.5, contaminated="drop")
    prompts = tmp_path / "prompts.jsonl"
    made.write(prompts)
    rows = [json.loads(line) for line in prompts.read_text().splitlines()]
    preds = tmp_path / "preds.jsonl"
    preds.write_text("".join(json.dumps({**r, "completion": "x"}) + "\n" for r in rows))
    facts = retrieval_facts(preds)
    assert facts["source"] == "rows" and facts["settings"] == made.settings.to_dict()
    assert (facts["prompts"], facts["fallbacks"]) == (4, sum(p.fallback for p in made.prompts))
    sidecar(preds).write_text(sidecar(prompts).read_text())
    assert retrieval_facts(preds)["source"] == "preds.jsonl.rag.json"
    plain = tmp_path / "plain.jsonl"
    plain.write_text(json.dumps({"id": "sample/pl_bell_state", "completion": "x"}) + "\n")
    assert retrieval_facts(plain) is None
    sidecar(plain).write_text("{not json")
    with pytest.raises(ValueError, match="plain.jsonl.rag.json"):
        retrieval_facts(plain)


@pytest.mark.slow  # two real evaluations of the sample's PennyLane tasks
def test_evaluate_records_retrieval_and_compare_reads_it(tmp_path):
    from quantum_codegen_eval.evaluate import evaluate

    made = rag_prompts("sample", SAMPLE, config="pennylane", threshold=0.0,
                      contaminated="drop")
    made.write(tmp_path / "prompts.jsonl")
    prompt_rows = {json.loads(x)["id"]: json.loads(x) for x in
                   (tmp_path / "prompts.jsonl").read_text().splitlines()}
    bundled = [json.loads(x) for x in Path(sample.predictions_path()).read_text().splitlines()]
    bundled = [r for r in bundled if r["id"] in prompt_rows]
    plain, rag = tmp_path / "plain.jsonl", tmp_path / "rag.jsonl"
    plain.write_text("".join(json.dumps(r) + "\n" for r in bundled))
    first = {}
    for r in bundled:
        first.setdefault(r["id"], r["completion"])
    rag.write_text("".join(json.dumps({**prompt_rows[r["id"]], "completion": first[r["id"]]}) + "\n"
                           for r in bundled))
    reports = {}
    for name, path in (("plain", plain), ("rag", rag)):
        rep = evaluate(str(path), "sample", "pennylane", store=tmp_path / name / "results.jsonl",
                       progress=False)
        rep.save(tmp_path / name)
        reports[name] = rep
    assert "retrieval" not in reports["plain"].provenance.extra
    assert reports["rag"].provenance.extra["retrieval"]["settings"]["retriever"] == "bm25"
    cmp = compare({"plain": tmp_path / "plain", "rag": tmp_path / "rag"}, n_boot=200,
                  out=tmp_path / "cmp")
    row = next(r for r in cmp.tables["retrieval"].rows if r[1:3] == ["all", 1])
    assert row[4] == pytest.approx(cmp.passk[1]["plain"]["all"].value)
    assert row[5] == pytest.approx(cmp.passk[1]["rag"]["all"].value)
    assert (tmp_path / "cmp" / "tables" / "retrieval.md").is_file()
    assert "With vs without retrieval" in (tmp_path / "cmp" / "comparison.md").read_text()
