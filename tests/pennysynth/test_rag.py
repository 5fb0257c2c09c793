"""RAG prompts: the retrievers, the paper's prompt shape, the fallback and contamination rules,
the consistency report and ``qce prompts --rag`` (offline: the benchmark is a held-out
PennySynth file, so its references are real code the contamination check compares)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from pennysynth_user import tfidf_embed
from sklearn.metrics.pairwise import cosine_similarity

from quantum_codegen_eval.benchmarks import pennysynth
from quantum_codegen_eval.cli import main
from quantum_codegen_eval.rag import (
    SELECTIVE_CONTEXT,
    BM25Retriever,
    ContaminatedCorpus,
    consistency,
    rag_prompts,
    sidecar,
)

DATA = Path(__file__).parent / "data"
SAMPLE = DATA / "sample.jsonl"
PROBLEMS = DATA / "rag_problems.jsonl"


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def problems():
    return pennysynth.problems(data_dir=PROBLEMS)


@pytest.fixture
def corpus(tmp_path):
    """The sample corpus plus one entry per held-out problem's topic (not its code)."""
    rows = _rows(SAMPLE)
    rows.append({**rows[0], "id": "ps-tele", "dedup_cluster": "c-tele",
                 "instruction": "Teleport a qubit state with mid-circuit measurements.",
                 "code": "import pennylane as qml\n\ndev = qml.device('default.qubit', wires=3)\n"
                         "\n\n@qml.qnode(dev)\ndef t():\n    m = qml.measure(0)\n"
                         "    qml.cond(m, qml.PauliX)(wires=2)\n    return qml.expval(qml.PauliZ(2))\n"})
    path = tmp_path / "corpus.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture
def contaminated(tmp_path, corpus):
    """The corpus plus a renamed, reformatted copy of p-teleport's code (its answer)."""
    leak = next(r for r in _rows(PROBLEMS) if r["id"] == "p-teleport")
    code = leak["code"].replace("teleport", "move_state").replace("angle", "a").replace("m0", "x")
    rows = _rows(corpus) + [{**leak, "id": "leak-1", "dedup_cluster": "c-leak",
                             "code": code + "# copied\n"}]
    path = tmp_path / "contaminated.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_prompt_has_the_papers_shape(problems, corpus):
    made = rag_prompts("pennysynth", corpus, problems=problems, threshold=0.0)
    p = next(p for p in made.prompts if p.id == "p-teleport")
    assert p.retrieved and not p.fallback and len(p.retrieved) <= 5
    task = problems["p-teleport"].instruction
    first_example = p.prompt.index("### Example 1")
    assert first_example < p.prompt.index(SELECTIVE_CONTEXT) < p.prompt.index(task)
    assert p.prompt.endswith(task)
    # the examples are the retrieved entries, best first, each with its code
    codes = {r["id"]: r["code"] for r in _rows(corpus)}
    positions = [p.prompt.index(codes[i].rstrip()) for i, _ in p.retrieved]
    assert positions == sorted(positions)
    assert p.retrieved[0][0] == "ps-tele"  # the teleportation entry ranks first for teleportation


def test_fallback_below_the_threshold_is_the_plain_prompt(problems, corpus):
    scores = {p.id: p.top_score for p in rag_prompts("pennysynth", corpus, problems=problems,
                                                      threshold=0.0).prompts}
    low, high = sorted(scores.values())[0], sorted(scores.values())[-1]
    assert 0 < low < high <= 1
    tau = (low + high) / 2
    made = rag_prompts("pennysynth", corpus, problems=problems, threshold=tau)
    for p in made.prompts:
        plain = problems[p.id].instruction
        assert p.fallback == (scores[p.id] < tau)
        assert (p.prompt == plain) == p.fallback  # a fallback is exactly the plain prompt
        assert all(s >= tau for _, s in p.retrieved)
        assert bool(p.retrieved) != p.fallback
    assert any(p.fallback for p in made.prompts) and not all(p.fallback for p in made.prompts)


def test_contaminated_corpus_is_refused(problems, contaminated):
    with pytest.raises(ContaminatedCorpus) as info:
        rag_prompts("pennysynth", contaminated, problems=problems)
    assert info.value.flagged == {"p-teleport": ["leak-1"]}


def test_dropping_leaves_the_answer_out_of_its_own_problem_only(problems, contaminated):
    # without the rule, the leaked answer is the best hit for its problem
    texts = [f"{r['instruction']}\n{r['code']}" for r in _rows(contaminated)]
    ids = [r["id"] for r in _rows(contaminated)]
    top = BM25Retriever(texts).search(problems["p-teleport"].instruction, 1)[0]
    assert ids[top.index] == "leak-1"
    made = rag_prompts("pennysynth", contaminated, problems=problems, threshold=0.0,
                       contaminated="drop", top_k=10)
    by = {p.id: p for p in made.prompts}
    assert by["p-teleport"].dropped == ("leak-1",) and made.dropped == 1
    assert "leak-1" not in {i for i, _ in by["p-teleport"].retrieved}
    assert "# copied" not in by["p-teleport"].prompt
    assert by["p-teleport"].retrieved  # the rest of the corpus is still retrieved
    assert not by["p-grover"].dropped


def test_bm25_similarity_is_normalised_by_the_entrys_self_score():
    docs = ["qml.Hadamard qml.CNOT bell state probs", "qml.RX gradient expval PauliZ",
            "GroverOperator FlipSign search"]
    r = BM25Retriever(docs)
    assert r.search(docs[0], 3)[0] == type(r.search(docs[0], 3)[0])(0, pytest.approx(1.0))
    hits = r.search("bell state with a Hadamard and a CNOT and more words", 3)
    assert hits[0].index == 0 and 0 < hits[0].score < 1
    assert r.search("nothing in common", 3) == []
    # the self-scores read from the index are the library's scores of each entry's own terms
    from quantum_codegen_eval.rag._retrievers import tokens

    for i, doc in enumerate(docs):
        own = r._bm25.get_scores([r._vocab[t] for t in dict.fromkeys(tokens(doc))])
        assert r._self[i] == pytest.approx(own[i], rel=1e-6)


def test_dense_retrieval_is_cosine_of_the_users_embedding(problems, corpus):
    embed = tfidf_embed(corpus)
    made = rag_prompts("pennysynth", corpus, problems=problems, retriever="embedding",
                       embed=embed, threshold=0.0)
    rows = _rows(corpus)
    docs = embed([f"{r['instruction']}\n{r['code']}" for r in rows if r["verification_status"] == "passed"])
    ids = [r["id"] for r in rows if r["verification_status"] == "passed"]
    for p in made.prompts:
        sims = cosine_similarity(embed([problems[p.id].instruction]), docs)[0]
        best = np.argsort(-sims, kind="stable")[:5]
        assert [i for i, _ in p.retrieved] == [ids[i] for i in best]
        assert [s for _, s in p.retrieved] == pytest.approx([sims[i] for i in best])
    assert made.settings.retriever == "embedding"
    assert "TfidfVectorizer" in made.settings.retriever_options["embed"]


def test_query_expansion_is_applied(problems, corpus):
    plain = rag_prompts("pennysynth", corpus, problems=problems, threshold=0.0, top_k=1)
    grover = rag_prompts("pennysynth", corpus, problems=problems, threshold=0.0, top_k=1,
                         expand=lambda q: q + " Fourier transform QFT BasisState state vector")
    assert {p.retrieved[0][0] for p in grover.prompts} == {"ps-0004"}
    assert {p.retrieved[0][0] for p in plain.prompts} != {"ps-0004"}
    assert grover.settings.expand.endswith("<lambda>")


def test_consistency_report_per_group():
    from types import SimpleNamespace as P

    tops = {"2022": [0.9, 0.5, 0.7, None], "2023": [0.65, 0.61]}
    rows = [P(group=g, top_score=t, fallback=(t or 0) < 0.6) for g, ts in tops.items() for t in ts]
    rep = consistency(rows, 0.6)
    assert [g.group for g in rep.groups] == ["2022", "2023", "all"]
    g22 = rep.groups[0]
    assert g22.mean_top == pytest.approx(np.mean([0.9, 0.5, 0.7, 0.0]))
    assert g22.quantiles["median"] == pytest.approx(0.6)  # (0.5 + 0.7) / 2
    assert g22.fallbacks == 2 and g22.fallback_rate == 0.5
    assert g22.histogram == [1, 0, 0, 0, 0, 1, 0, 1, 0, 1]
    assert rep.groups[2].prompts == 6 and rep.groups[2].fallbacks == 2
    assert "| 2023 | 2 | 0.630 |" in rep.to_markdown()


def test_cli_writes_prompts_and_their_sidecar(tmp_path, corpus, capsys):
    out = tmp_path / "prompts.jsonl"
    code = main(["prompts", "pennysynth", "--data-dir", str(PROBLEMS), "--rag", str(corpus),
                 "--threshold", "0.05", "--out", str(out)])
    assert code == 0
    rows = _rows(out)
    assert [r["id"] for r in rows] == ["p-teleport", "p-grover", "p-embedding"]
    assert all(r["rag"]["settings"]["retriever"] == "bm25" for r in rows)
    side = json.loads(sidecar(out).read_text())
    assert side["settings"]["top_k"] == 5 and side["settings"]["threshold"] == 0.05
    assert side["consistency"]["groups"][0]["prompts"] == 3
    assert "Retrieval consistency" in capsys.readouterr().err


def test_cli_refuses_a_contaminated_corpus_unless_told_to_drop(tmp_path, contaminated, capsys):
    args = ["prompts", "pennysynth", "--data-dir", str(PROBLEMS), "--rag", str(contaminated),
            "--out", str(tmp_path / "p.jsonl")]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "p-teleport: leak-1" in err and "Traceback" not in err
    assert not (tmp_path / "p.jsonl").exists()
    assert main([*args, "--drop-contaminated"]) == 0
    assert "1 contaminated entries left out" in capsys.readouterr().err


def test_cli_embedding_needs_embed(tmp_path, corpus, capsys):
    assert main(["prompts", "pennysynth", "--data-dir", str(PROBLEMS), "--rag", str(corpus),
                 "--retriever", "embedding", "--out", str(tmp_path / "p.jsonl")]) == 2
    assert "needs an embed callable" in capsys.readouterr().err
