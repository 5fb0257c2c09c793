"""``synthesize``: grow a PennySynth-schema corpus with the user's model.

Steps: ``n`` synthesis requests, each showing ``seeds_per_prompt`` seeds drawn (reproducibly,
by ``seed``) from ``seeds`` → the user's ``generate`` (a batch function, as for
:func:`..refinement.refine_all`) → each answer checked (:mod:`._checks`), then run in the
sandbox on the installed PennyLane → near-duplicates among the passed candidates dropped → a
dataset folder
(``<out>/dataset``: Parquet, card, ``build_report.json`` with every rejection by reason).

Everything is kept in ``out`` as it happens: ``generated.jsonl`` (each request's prompt and
answer, written when ``generate`` returned) and ``verified.jsonl`` (each candidate's outcome).
Run again with the same ``out`` (after Ctrl-C or a crash) and no stored request is generated,
no stored candidate is judged again.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..benchmarks.base import UsageError, get
from ..execution.store import ResultStore
from ..metrics.signature import package_version
from ..neardup import DEFAULT_THRESHOLD, NearDuplicateIndex
from ._checks import REASONS, bad_api, contaminated, duplicate, syntax_error
from ._prompt import parse_answer, synthesis_prompt
from ._seeds import Seed, corpus_seeds

DEFAULT_TIME_LIMIT = 20.0
#: the benchmarks a candidate is checked against by default (the paper's test set)
DEFAULT_AGAINST = ("qhack",)


@dataclass(frozen=True)
class SynthesisRequest:
    """What ``generate`` is asked for: one answer to ``prompt``."""

    id: str
    prompt: str
    seeds: tuple[str, ...]


class SynthesisInterrupted(KeyboardInterrupt):
    """Ctrl-C: everything generated and judged so far is in ``out``; run again to resume."""

    def __init__(self, out: Path, generated: int, verified: int):
        super().__init__(f"{generated} answers and {verified} verdicts kept in {out}")
        self.out, self.generated, self.verified = out, generated, verified


def _seeds(seeds: Any) -> list[Seed]:
    if isinstance(seeds, (str, Path)):
        return corpus_seeds(seeds)
    out = list(seeds)
    if not out or not all(isinstance(s, Seed) for s in out):
        raise UsageError("seeds: a corpus path or a non-empty list of Seed")
    return out


def _against(against: Iterable[str] | Mapping[str, dict[str, Any]],
             data_dirs: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    if isinstance(against, Mapping):
        return dict(against)
    out = {}
    for name in against:
        bench = get(name)
        out[bench.name] = bench.loader.problems(bench.configs[0], data_dir=data_dirs.get(name))
    return out


def requests(seeds: Sequence[Seed], n: int, *, seeds_per_prompt: int = 3, seed: int = 0,
             pennylane_version: str = "") -> list[SynthesisRequest]:
    """The ``n`` requests (the same for the same arguments: a resumed run asks the same)."""
    out = []
    k = min(seeds_per_prompt, len(seeds))
    for i in range(n):
        picked = random.Random(f"{seed}:{i}").sample(list(seeds), k)
        out.append(SynthesisRequest(f"syn-{i:06d}", synthesis_prompt(picked, pennylane_version),
                                    tuple(s.id for s in picked)))
    return out


def _generate(generate: Callable, batch: list[SynthesisRequest]) -> list[str]:
    answers = generate(batch)
    if not isinstance(answers, list) or len(answers) != len(batch):
        raise TypeError(f"generate() must return a list of {len(batch)} strings, got "
                        f"{type(answers).__name__}" + (f" of {len(answers)}" if isinstance(answers, list) else ""))
    bad = next((a for a in answers if not isinstance(a, str)), None)
    if bad is not None:
        raise TypeError(f"generate() returned {type(bad).__name__}, not str")
    return answers


def _static(row: dict[str, Any], version: str, existing: NearDuplicateIndex
            ) -> tuple[str, str, Any, dict[str, Any]]:
    """(reason, message, (instruction, code), the record's further fields) of the checks
    before the sandbox; reason '' if the candidate goes on to run."""
    parsed = parse_answer(row["answer"])
    if parsed is None:
        return "format", "no instruction or no fenced code block", None, {}
    err = syntax_error(parsed[1])
    if err:
        return "syntax", err, parsed, {}
    api = bad_api(parsed[1], version)
    if api:
        return "hallucinated_api", api, parsed, {}
    message, match = duplicate(parsed[1], existing)
    if message:
        return "duplicate", message, parsed, match
    return "", "", parsed, {}


def synthesize(generate: Callable[[list[SynthesisRequest]], list[str]], seeds: Any, *,
               out: str | Path, n: int, corpus: str | Path | None = None,
               against: Iterable[str] | Mapping[str, dict[str, Any]] = DEFAULT_AGAINST,
               data_dirs: Mapping[str, Any] | None = None, seeds_per_prompt: int = 3,
               seed: int = 0, batch_size: int = 16, time_limit: float = DEFAULT_TIME_LIMIT,
               workers: int | None = None, scheduler: Any = None, progress: bool = True,
               generator_name: str = "", near_duplicate: float = DEFAULT_THRESHOLD
               ) -> dict[str, Any]:
    """Synthesise ``n`` candidates and write the verified ones (see the module docstring);
    returns the build report.

    ``seeds``: a corpus path or a list of :class:`Seed` (:func:`corpus_seeds`,
    :func:`qhack_seeds`); ``corpus``: the existing corpus a candidate must not duplicate
    (default: ``seeds`` when it is a path); ``against``: benchmark names (their default config,
    ``data_dirs[name]`` or the cache) or ``{name: problems}`` a candidate must not be
    contaminated with; ``near_duplicate``: the Jaccard similarity of normalised token n-gram
    sets at or above which a candidate is a ``duplicate`` of a corpus entry or of an earlier
    passed candidate (:mod:`._checks`); ``scheduler``: run the sandbox jobs on a dask cluster
    (``cluster.py``). Ctrl-C raises :class:`SynthesisInterrupted` with everything kept.
    """
    if n < 1 or batch_size < 1 or seeds_per_prompt < 1:
        raise UsageError("n, batch_size and seeds_per_prompt must be positive")
    if not 0 < near_duplicate <= 1:
        raise UsageError(f"near_duplicate must be in (0, 1], got {near_duplicate}")
    out = Path(out)
    version = package_version("pennylane")
    if version == "none":
        raise UsageError("synthesize verifies on the installed PennyLane: pip install "
                         "'quantum-codegen-eval[pennylane]'")
    pool = _seeds(seeds)
    existing_path = corpus if corpus is not None else seeds if isinstance(seeds, (str, Path)) else None
    existing = NearDuplicateIndex(threshold=near_duplicate)
    for s in corpus_seeds(existing_path) if existing_path else ():
        existing.add(s.id, s.code)
    problems = _against(against, data_dirs or {})
    asked = requests(pool, n, seeds_per_prompt=seeds_per_prompt, seed=seed,
                     pennylane_version=version)
    out.mkdir(parents=True, exist_ok=True)
    generated = ResultStore(out / "generated.jsonl")
    verified = ResultStore(out / "verified.jsonl")
    try:
        _generate_all(generate, asked, generated, batch_size, progress)
        _verify_all(asked, generated, verified, version, existing, problems, time_limit, workers,
                    scheduler, progress)
    except KeyboardInterrupt:
        raise SynthesisInterrupted(out, len(generated), len(verified)) from None
    finally:
        generated.close()
        verified.close()
    return _write(out, asked, verified, version, generator_name or _name(generate), existing_path,
                  sorted(problems), near_duplicate)


def _name(fn: Any) -> str:
    return f"{getattr(fn, '__module__', '')}:{getattr(fn, '__qualname__', type(fn).__name__)}"


def _bar(total: int, desc: str, progress: bool):
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="cand", disable=not progress)


def _generate_all(generate, asked, store, batch_size, progress):
    todo = [r for r in asked if r.id not in store]
    with _bar(len(asked), "generating", progress) as bar:
        bar.update(len(asked) - len(todo))
        for i in range(0, len(todo), batch_size):
            batch = todo[i:i + batch_size]
            for r, answer in zip(batch, _generate(generate, batch), strict=True):
                store.add({"id": r.id, "seeds": list(r.seeds), "prompt": r.prompt,
                           "answer": answer})
            bar.update(len(batch))


def _verify_all(asked, generated, verified, version, existing, problems, time_limit, workers,
                scheduler, progress):
    from ..loaders.pennysynth import verification_job, verification_status

    todo = [generated.get(r.id) for r in asked if r.id not in verified]
    with _bar(len(asked), "verifying", progress) as bar:
        bar.update(len(asked) - len(todo))
        to_run: dict[str, tuple[str, str]] = {}
        for row in todo:
            reason, message, parsed, match = _static(row, version, existing)
            if reason:
                verified.add(_verdict(row, reason, message, parsed, match))
                bar.update()
            else:
                to_run[row["id"]] = parsed
        flagged = contaminated([(i, code) for i, (_, code) in to_run.items()], problems)
        for cid, where in flagged.items():
            verified.add(_verdict(generated.get(cid), "contaminated", where, to_run.pop(cid)))
            bar.update()
        if not to_run:
            return
        jobs = [verification_job(code, cid, time_limit) for cid, (_, code) in to_run.items()]
        sandbox, cluster = _sandbox(scheduler, workers)
        try:
            for result in sandbox.map(jobs):
                status, message = verification_status(result, time_limit)
                verified.add(_verdict(generated.get(result.id), "" if status == "passed" else status,
                                      message, to_run[result.id]))
                bar.update()
        finally:
            sandbox.close()
            if cluster is not None:
                cluster.close()


def _sandbox(scheduler, workers):
    """A local sandbox pool, or one whose jobs go to a dask cluster (as ``evaluate``'s)."""
    from ..cluster import MAX_IN_FLIGHT, Cluster
    from ..execution import Sandbox

    cluster = Cluster.connect(scheduler, None, workers)
    if cluster is None:
        return Sandbox(workers=workers), None
    return Sandbox(executor=cluster.executor, workers=MAX_IN_FLIGHT), cluster


def _verdict(row: dict[str, Any], reason: str, message: str, parsed: Any,
             extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    instruction, code = parsed if parsed else ("", "")
    return {"id": row["id"], "status": "rejected" if reason else "passed", "reason": reason,
            "message": message, "seeds": row["seeds"], "instruction": instruction, "code": code,
            **(extra or {})}


def _write(out: Path, asked, verified, version, generator, corpus, against,
           near_duplicate: float) -> dict[str, Any]:
    """The dataset of the passed candidates, near-duplicates among them dropped (the first of
    each cluster, in request order, is kept with the cluster's size), and the build report."""
    from ..loaders.pennysynth import cluster_key, write_dataset

    rows, counts, kept = [], dict.fromkeys(REASONS, 0), {}
    within: dict[str, dict[str, Any]] = {}  # candidate id -> the kept one it duplicates
    index = NearDuplicateIndex(threshold=near_duplicate)
    for r in asked:
        v = verified.get(r.id)
        if v is None:
            continue
        if v["reason"]:
            counts[v["reason"]] += 1
            continue
        _, match = duplicate(v["code"], index)
        if match:
            counts["duplicate"] += 1
            kept[match["duplicate_of"]]["cluster_size"] += 1
            within[r.id] = match
            continue
        index.add(r.id, v["code"])
        kept[r.id] = row = {
            "id": r.id, "instruction": v["instruction"], "code": v["code"],
            "source_category": _category(v["seeds"]), "pennylane_version": version,
            "verification_status": "passed", "dedup_cluster": cluster_key(v["code"]),
            "source_ref": f"synthesized by {generator} from seeds {', '.join(v['seeds'])}",
            "cluster_size": 1}
        rows.append(row)
    report = {"generator": generator, "pennylane_version": version, "requested": len(asked),
              "judged": sum(1 for r in asked if verified.get(r.id) is not None),
              "accepted": len(rows), "rejected": counts,
              "duplicate_of": "an existing entry of " + str(corpus) if corpus else "",
              "near_duplicate": {"similarity": f"Jaccard of normalised token {index.n}-gram sets",
                                 "threshold": near_duplicate,
                                 "of_corpus": counts["duplicate"] - len(within),
                                 "within_run": len(within)},
              "duplicates_within_run": within,
              "contamination_checked_against": against}
    dataset = out / "dataset"
    if rows:
        write_dataset(rows, dataset)
    dataset.mkdir(parents=True, exist_ok=True)
    (dataset / "build_report.json").write_text(json.dumps(report, indent=2))
    return report


def _category(seed_ids: list[str]) -> str:
    """The schema's category of the seed material: QHack seeds make ``qhack_archive``, else
    ``community_github`` (synthesised code is not official documentation)."""
    return "qhack_archive" if any(s.startswith("qhack:") for s in seed_ids) else "community_github"
