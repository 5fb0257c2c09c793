"""``rag_prompts``: a benchmark's prompts with examples retrieved from a PennySynth corpus.

Per problem: the query is the benchmark's prompt (through the user's ``expand`` when given);
the retriever ranks the verified corpus entries; the entries that ``qce contamination`` flags
for *this* problem are refused (the default: :class:`ContaminatedCorpus`, nothing written) or,
with ``contaminated="drop"``, left out of this problem's ranking and counted; the top ``top_k``
entries whose similarity is at least ``threshold`` go into the prompt. When none reaches it the
prompt falls back to the plain prompt (``fallback``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..benchmarks.base import Benchmark, UsageError, get
from ._corpus import as_entries, document, fingerprint, load_corpus
from ._prompt import rag_prompt
from ._retrievers import BM25Retriever, DenseRetriever, Embed, callable_name

DEFAULT_TOP_K = 5
DEFAULT_THRESHOLD = 0.60
RETRIEVERS = ("bm25", "embedding")
CONTAMINATED = ("refuse", "drop")


class ContaminatedCorpus(ValueError):
    """The corpus holds entries flagged for problems being prompted (the default refuses)."""

    def __init__(self, flagged: dict[str, list[str]], corpus: str):
        self.flagged = flagged
        shown = "; ".join(f"{pid}: {', '.join(ids[:3])}" for pid, ids in list(flagged.items())[:5])
        super().__init__(f"corpus {corpus}: {sum(map(len, flagged.values()))} entries hold the "
                         f"code of {len(flagged)} problems being prompted ({shown}); retrieval "
                         "refuses them (drop them per problem with --drop-contaminated)")


@dataclass(frozen=True)
class RagSettings:
    """How the prompts were retrieved (recorded in the prompts' sidecar and a run's provenance)."""

    benchmark: str
    config: str | None
    retriever: str
    top_k: int
    threshold: float
    corpus: str
    corpus_entries: int  #: verified entries retrieval saw
    corpus_fingerprint: str
    unverified_left_out: int
    contaminated: str  #: "refuse" or "drop"
    expand: str = ""  #: the query-expansion callable, if any
    retriever_options: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class RagPrompt:
    """One problem's prompt and what retrieval did for it."""

    id: str
    group: str
    prompt: str
    #: (entry id, similarity) in the prompt, in the retriever's rank order (BM25 ranks by its
    #: raw score, so the normalised similarities need not decrease)
    retrieved: tuple[tuple[str, float], ...]
    top_score: float | None  #: the best similarity among the top-k hits (also below the threshold)
    fallback: bool
    dropped: tuple[str, ...] = ()  #: contaminated entries left out for this problem

    def to_dict(self, settings: RagSettings | None = None) -> dict[str, Any]:
        rag: dict[str, Any] = {
            "retrieved": [{"id": i, "score": round(s, 4)} for i, s in self.retrieved],
            "top_score": None if self.top_score is None else round(self.top_score, 4),
            "fallback": self.fallback, "dropped_contaminated": list(self.dropped)}
        if settings is not None:
            rag["settings"] = settings.to_dict()
        return {"id": self.id, "prompt": self.prompt, "group": self.group, "rag": rag}


@dataclass
class RagPrompts:
    """The prompts of one benchmark config and their settings."""

    settings: RagSettings
    prompts: list[RagPrompt]

    @property
    def dropped(self) -> int:
        return sum(len(p.dropped) for p in self.prompts)

    def consistency(self):
        from ._consistency import consistency

        return consistency(self.prompts, self.settings.threshold)

    def write(self, path: str | Path) -> Path:
        """One JSON line per prompt (``id``, ``prompt``, ``group``, ``rag`` with the settings)
        and the sidecar ``<path>.rag.json`` (settings and consistency); returns the sidecar."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(p.to_dict(self.settings), ensure_ascii=False) + "\n"
                                for p in self.prompts), encoding="utf-8")
        side = sidecar(path)
        side.write_text(json.dumps({"settings": self.settings.to_dict(),
                                    "consistency": self.consistency().to_dict()}, indent=2))
        return side


def sidecar(path: str | Path) -> Path:
    """The retrieval sidecar of a prompts or predictions file: ``<name>.rag.json`` beside it."""
    path = Path(path)
    return path.with_name(path.name + ".rag.json")


def _retriever(name: str, docs: list[str], embed: Embed | None):
    if name not in RETRIEVERS:
        raise UsageError(f"unknown retriever {name!r}; expected one of {', '.join(RETRIEVERS)}")
    if name == "embedding":
        if embed is None:
            raise UsageError("the embedding retriever needs an embed callable (--embed "
                             "module:function, or embed= in Python)")
        return DenseRetriever(docs, embed)
    if embed is not None:
        raise UsageError("embed is given but the retriever is bm25; pass retriever='embedding'")
    return BM25Retriever(docs)


def rag_prompts(benchmark: str | Benchmark, corpus: str | Path, *, config: str | None = None,
                data_dir: str | Path | None = None, retriever: str = "bm25",
                embed: Embed | None = None, expand: Callable[[str], str] | None = None,
                top_k: int = DEFAULT_TOP_K, threshold: float = DEFAULT_THRESHOLD,
                contaminated: str = "refuse",
                problems: dict[str, Any] | None = None) -> RagPrompts:
    """The benchmark's prompts with retrieved examples (see the module docstring).

    ``retriever``: ``"bm25"`` (default; needs no model) or ``"embedding"`` with ``embed``
    (``texts -> one vector per text``, e.g. ``SentenceTransformer(name).encode``); ``expand``:
    ``query -> query`` (query expansion, the user's). ``contaminated``: ``"refuse"`` raises
    :class:`ContaminatedCorpus` when an entry is flagged for a problem, ``"drop"`` leaves it
    out of that problem's retrieval and records it.
    """
    from ..contamination import contamination

    if top_k < 1:
        raise UsageError(f"top_k must be a positive integer, got {top_k}")
    if not 0 <= threshold <= 1:
        raise UsageError(f"threshold must be in [0, 1], got {threshold}")
    if contaminated not in CONTAMINATED:
        raise UsageError(f"contaminated must be one of {CONTAMINATED}, got {contaminated!r}")
    bench = benchmark if isinstance(benchmark, Benchmark) else get(benchmark)
    config = bench.check_judged_config(config) if bench.judge else bench.check_config(config)
    if problems is None:
        problems = bench.loader.problems(config, data_dir=data_dir)
    entries, unverified = load_corpus(corpus)
    report = contamination(str(corpus), bench, config, problems=problems,
                           entries=as_entries(entries))
    flagged = {pid: sorted({m.entry for m in ms}) for pid, ms in report.flagged.items()}
    if flagged and contaminated == "refuse":
        raise ContaminatedCorpus(flagged, str(corpus))
    ranker = _retriever(retriever, [document(e) for e in entries], embed)
    settings = RagSettings(bench.name, config, retriever, top_k, float(threshold), str(corpus),
                           len(entries), fingerprint(entries), unverified, contaminated,
                           callable_name(expand) if expand else "", ranker.settings)
    out = []
    for pid, record in problems.items():
        task = bench.prompt(record)
        query = expand(task) if expand else task
        if not isinstance(query, str):
            raise TypeError(f"expand() must return a string, got {type(query).__name__} for {pid}")
        banned = set(flagged.get(pid, ()))
        hits = [h for h in ranker.search(query, top_k + len(banned))
                if entries[h.index].id not in banned][:top_k]
        kept = [h for h in hits if h.score >= threshold]
        examples = [(entries[h.index].instruction, entries[h.index].code) for h in kept]
        out.append(RagPrompt(pid, str(bench.group(record)), rag_prompt(task, examples),
                             tuple((entries[h.index].id, h.score) for h in kept),
                             max((h.score for h in hits), default=None), not kept, tuple(sorted(banned))))
    return RagPrompts(settings, out)
