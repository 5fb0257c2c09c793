"""RAG prompts for the three QHack years from a corpus the builder made, with each retriever
(upstream tier: the QHack dataset is built from the mirrored archives)."""

from __future__ import annotations

import pytest
from pennysynth_user import tfidf_embed

from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.loaders import pennysynth as builder
from quantum_codegen_eval.rag import rag_prompts

MODULE = "pennylane.ops.qubit.parametric_ops_single_qubit"


@pytest.fixture(scope="module")
def qhack_data(github_url, tmp_path_factory):
    from quantum_codegen_eval.benchmarks.base import get
    from quantum_codegen_eval.datasets_cache import build_dataset

    out = tmp_path_factory.mktemp("qhack-dataset")
    build_dataset(get("qhack"), out, progress=False)
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    out = tmp_path_factory.mktemp("pennysynth")
    builder.build(None, out, modules=MODULE, time_limit="20", progress="false")
    return out


@pytest.mark.parametrize("retriever", ["bm25", "embedding"])
def test_prompts_for_the_three_years(qhack_data, corpus, retriever):
    embed = tfidf_embed(corpus) if retriever == "embedding" else None
    made = rag_prompts("qhack", corpus, data_dir=qhack_data, retriever=retriever, embed=embed,
                       threshold=0.1)
    records = qhack.problems("all", data_dir=qhack_data)
    assert [p.id for p in made.prompts] == list(records)
    assert {p.group for p in made.prompts} == {"2022", "2023", "2024"}
    for p in made.prompts:
        plain = qhack.prompt(records[p.id])
        assert p.prompt.endswith(plain)
        assert p.fallback == (p.prompt == plain) == (not p.retrieved)
    assert any(not p.fallback for p in made.prompts)
    rep = made.consistency()
    assert [g.group for g in rep.groups] == ["2022", "2023", "2024", "all"]
    assert rep.groups[-1].prompts == len(records)
