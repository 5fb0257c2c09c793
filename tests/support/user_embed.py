"""A user's module for ``qce prompts --rag CORPUS --retriever embedding --embed user_embed:embed``:
TF-IDF fitted on the corpus named by ``$QCE_RAG_CORPUS`` (a JSONL file or a dataset folder)."""

from __future__ import annotations

import os

from pennysynth_user import tfidf_embed

embed = tfidf_embed(os.environ["QCE_RAG_CORPUS"])
