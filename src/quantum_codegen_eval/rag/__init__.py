"""Retrieval-augmented prompts (the PennySynth paper's RAG condition): retrievers, the prompt
shape, the consistency report and the contamination rule.

>>> prompts = rag_prompts("qhack", "pennysynth-corpus/", top_k=5, threshold=0.6)  # doctest: +SKIP
>>> prompts.write("prompts-rag.jsonl"); print(prompts.consistency().to_markdown())  # doctest: +SKIP
"""

from ._build import (
                     CONTAMINATED,
                     DEFAULT_THRESHOLD,
                     DEFAULT_TOP_K,
                     RETRIEVERS,
                     ContaminatedCorpus,
                     RagPrompt,
                     RagPrompts,
                     RagSettings,
                     rag_prompts,
                     sidecar,
)
from ._consistency import Consistency, GroupConsistency, consistency
from ._prompt import SELECTIVE_CONTEXT, rag_prompt
from ._provenance import retrieval_facts
from ._retrievers import BM25Retriever, DenseRetriever, Hit, tokens

__all__ = ["BM25Retriever", "CONTAMINATED", "Consistency", "ContaminatedCorpus",
           "DEFAULT_THRESHOLD", "DEFAULT_TOP_K", "DenseRetriever", "GroupConsistency", "Hit",
           "RETRIEVERS", "RagPrompt", "RagPrompts", "RagSettings", "SELECTIVE_CONTEXT",
           "consistency", "rag_prompt", "rag_prompts", "retrieval_facts", "sidecar", "tokens"]
