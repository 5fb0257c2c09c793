"""Refinement loops: generate, judge, feed the verdict back, until accepted or out of rounds.

``refine_all(generate, benchmark)`` runs the loop for a whole benchmark: a *chain* is one
(problem, sample index); ``generate`` is the user's batch function, called once per round with the
requests of the chains still failing. Round 0 answers the benchmark's prompt; round ``r >= 1``
is the ``r``-th repair, prompted with the chain's earlier answers and the judge's feedback
(:func:`.feedback.followup_prompt`, worded as the benchmark declares). All judging of a round goes
through :func:`.evaluate.evaluate` (one sandbox pool, results streamed into a result store), so a
killed loop resumed from its ``store`` folder calls ``generate`` for no stored round and judges
no stored answer again. ``refine(generate, problem)`` is the same loop for one problem.

>>> report = refine_all(my_batch_generate, "qcoder", rounds=14, store="runs/qcoder-refine")  # doctest: +SKIP
>>> report.refinement["success_by_round"]  # doctest: +SKIP
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .benchmarks.base import Benchmark, FeedbackWording, get
from .evaluate import (
    DEFAULT_METRICS,
    RUN_KEYWORDS,
    JudgingOptions,
    completion_hash,
    evaluate,
    score_run,
)
from .feedback import feedback_prompt, followup_prompt
from .predictions import Sample
from .verdict import Verdict

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .report import Report

#: how the report counts rounds (also written into it)
ROUND_NUMBERING = ("round 0 is the first answer to the benchmark's prompt; round r >= 1 is the "
                   "r-th repair after judge feedback (QCoder's refinement iteration i is round "
                   "i - 1)")


@dataclass(frozen=True)
class RefineRequest:
    """What ``generate`` is asked for: one answer of chain (``problem_id``, ``sample``) in
    ``round``, to ``prompt``."""

    problem_id: str
    sample: int
    round: int
    prompt: str


@dataclass
class Round:
    """One refinement round of a chain."""

    prompt: str
    completion: str
    verdict: Verdict


@dataclass
class RefineResult:
    """One chain: its rounds in order (the last one is AC, or the budget ran out)."""

    problem_id: str
    rounds: list[Round] = field(default_factory=list)
    sample: int = 0

    @property
    def solved(self) -> bool:
        return bool(self.rounds) and self.rounds[-1].verdict.passed

    @property
    def first_ac_round(self) -> int | None:
        """0-based index of the accepted round (None when never accepted)."""
        return next((i for i, r in enumerate(self.rounds) if r.verdict.passed), None)

    def to_dict(self) -> dict[str, Any]:
        return {"problem_id": self.problem_id, "sample": self.sample, "solved": self.solved,
                "first_ac_round": self.first_ac_round,
                "rounds": [{"prompt": r.prompt, "completion": r.completion,
                            "verdict": r.verdict.to_dict()} for r in self.rounds]}


BatchGenerate = Callable[[list[RefineRequest]], Sequence[str]]


class _RunStore:
    """A refinement run's folder: ``run.json`` (what was asked), ``answers.jsonl`` (one record
    per round, written once ``generate`` returned) and ``round-<r>.jsonl`` (that round's result
    store, written by ``evaluate``)."""

    def __init__(self, folder: Path, run: dict[str, Any], resume: bool):
        from .execution import ResultStore

        self.folder = folder
        if folder.exists() and not folder.is_dir():
            raise ValueError(f"refinement store {folder} is not a folder")
        meta = folder / "run.json"
        if meta.exists() and not resume:
            raise FileExistsError(f"refinement store {folder} already holds a run: pass "
                                  "resume=True to continue it, or choose another store")
        if meta.exists():
            try:
                was = json.loads(meta.read_text())
            except ValueError:
                raise ValueError(f"refinement store {meta} is unreadable; use a new store") from None
            differs = [k for k in run if k != "rounds" and was.get(k) != run[k]]
            if differs:
                raise ValueError(f"refinement store {folder} holds another run ({differs[0]}: "
                                 f"{was.get(differs[0])!r}, now {run[differs[0]]!r}); use a new store")
        folder.mkdir(parents=True, exist_ok=True)
        meta.write_text(json.dumps(run, indent=2))
        self.answers = ResultStore(folder / "answers.jsonl", key="key")

    def stored_answers(self, r: int) -> dict[str, str] | None:
        rec = self.answers.get(f"round-{r}")
        return None if rec is None else dict(rec["answers"])

    def save_answers(self, r: int, answers: dict[str, str]) -> None:
        self.answers.add({"key": f"round-{r}", "round": r, "answers": answers})

    def round_store(self, r: int) -> Path:
        return self.folder / f"round-{r}.jsonl"

    def close(self) -> None:
        self.answers.close()


def _answers(generate: BatchGenerate, requests: list[RefineRequest], r: int) -> list[str]:
    out = generate(requests)
    if isinstance(out, str) or not isinstance(out, Sequence):
        raise TypeError(f"generate() must return a list of strings (round {r}), got "
                        f"{type(out).__name__}")
    if len(out) != len(requests):
        raise ValueError(f"generate() returned {len(out)} answers for {len(requests)} prompts "
                         f"(round {r})")
    bad = next((i for i, a in enumerate(out) if not isinstance(a, str)), None)
    if bad is not None:
        raise TypeError(f"generate() returned {type(out[bad]).__name__}, not str, for "
                        f"{requests[bad].problem_id} sample {requests[bad].sample} (round {r})")
    return list(out)


def _check_options(caller: str, options: dict[str, Any]) -> None:
    """A keyword ``evaluate`` does not take is a TypeError before anything is generated (the
    keywords are read from ``evaluate`` itself: one list)."""
    takes = {name for name, p in inspect.signature(evaluate).parameters.items()
             if p.kind is inspect.Parameter.KEYWORD_ONLY} - set(RUN_KEYWORDS)
    unknown = sorted(set(options) - takes)
    if unknown:
        raise TypeError(f"{caller}() got an unexpected keyword argument {unknown[0]!r}")


def run_chains(generate: BatchGenerate, bench: Benchmark, config: str | None,
               problems: dict[str, Any], *, rounds: int, samples: int = 1,
               store: str | Path | None = None, resume: bool = False,
               round_reports: list[Any] | None = None,
               **options: Unpack[JudgingOptions]) -> dict[str, RefineResult]:
    """The loop itself: every chain's rounds, by chain key ``problem_id#sample``; each round's
    judging report (``evaluate``'s) is appended to ``round_reports`` when given. ``options``
    go to every round's ``evaluate``; without a sandbox or a cluster, the rounds share one
    sandbox pool (of ``workers``)."""
    from .execution import Sandbox

    _check_options("run_chains", dict(options))
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 0:
        raise ValueError(f"rounds must be an integer >= 0 (repairs after round 0), got {rounds!r}")
    if not isinstance(samples, int) or isinstance(samples, bool) or samples < 1:
        raise ValueError(f"samples must be a positive integer, got {samples!r}")
    judging: dict[str, Any] = {**options, "problems": problems}
    if judging.get("judge") is None:  # one judge for every round
        judging["judge"] = bench.make_judge(**(judging.get("judge_options") or {}))
    chains = {f"{pid}#{i}": RefineResult(pid, sample=i) for pid in problems for i in range(samples)}
    base = {pid: bench.prompt(rec) for pid, rec in problems.items()}
    run = {"benchmark": bench.name, "config": config, "samples": samples,
           "problems": sorted(problems), "rounds": rounds}
    saved = _RunStore(Path(store), run, resume) if store is not None else None
    on_cluster = judging.get("scheduler") is not None or judging.get("executor") is not None
    own = judging.get("sandbox") is None and not on_cluster
    if own:
        judging["sandbox"] = Sandbox(workers=judging.get("workers"))
    try:
        for r in range(rounds + 1):
            open_ = [key for key, chain in chains.items() if not chain.solved]
            if not open_:
                break
            prompts = {key: base[chains[key].problem_id] if r == 0 else followup_prompt(
                base[chains[key].problem_id], [(x.completion, x.verdict) for x in chains[key].rounds],
                bench.feedback) for key in open_}
            answers = saved.stored_answers(r) if saved else None
            if answers is None:
                requests = [RefineRequest(chains[key].problem_id, chains[key].sample, r,
                                          prompts[key]) for key in open_]
                answers = dict(zip(open_, _answers(generate, requests, r), strict=True))
                if saved:
                    saved.save_answers(r, answers)
            elif set(answers) != set(open_):
                raise ValueError(f"refinement store {store}: round {r} holds answers for other "
                                 "chains than this run asks; use a new store")
            rows = [{"id": chains[key].problem_id, "sample": chains[key].sample,
                     "completion": answers[key]} for key in open_]
            judged = evaluate(rows, bench, config, k=(1,), metrics=(), resume=True,
                              store=saved.round_store(r) if saved else None, **judging)
            if round_reports is not None:
                round_reports.append(judged)
            verdicts = {row["key"]: Verdict.from_dict(row["verdict"]) for row in judged.per_sample}
            for key in open_:
                chains[key].rounds.append(Round(prompts[key], answers[key], verdicts[key]))
    finally:
        if own:
            judging["sandbox"].close()
        if saved:
            saved.close()
    return chains


def refine_all(
    generate: BatchGenerate,
    benchmark: str | Benchmark,
    config: str | None = None,
    *,
    rounds: int = 2,
    samples: int = 1,
    k: Sequence[int] = (1,),
    metrics: Iterable[str] = DEFAULT_METRICS,
    store: str | Path | None = None,
    resume: bool = False,
    **options: Unpack[JudgingOptions],
) -> Report:
    """Refinement for a whole benchmark: at most ``rounds`` repairs after round 0 for each of
    ``samples`` chains per problem; returns the report of the final answers (the same
    :class:`~.report.Report` as :func:`~.evaluate.evaluate`) with a ``refinement`` section:
    success and pass@k after each round, and every chain's history.

    ``generate(requests) -> list[str]`` gets a list of :class:`RefineRequest` (use
    ``r.prompt``) and returns one answer per request, in order. ``store`` is a folder; with
    ``resume=True`` a stored round is neither generated nor judged again. ``options`` are
    ``evaluate``'s (:class:`~.evaluate.JudgingOptions`: ``workers``, ``data_dir``,
    ``problems``, ``judge``, ``judge_options``, ``sandbox``, ``scheduler``, ...), used for
    every round's judging.
    """
    import time

    _check_options("refine_all", dict(options))
    started = time.time()
    problems = options.pop("problems", None)  # loaded here once, handed to every round
    bench = benchmark if isinstance(benchmark, Benchmark) else get(benchmark)
    if config is not None or problems is None:
        config = bench.check_config(config)
    k = tuple(k)
    bad = [x for x in k if not isinstance(x, int) or isinstance(x, bool) or not 1 <= x <= samples]
    if bad:  # before generating anything
        raise ValueError(f"pass@k: k must be an integer from 1 to samples={samples}, got {bad[0]!r}")
    if problems is None:
        problems = bench.loader.problems(config, data_dir=options.get("data_dir"))
    judged: list[Any] = []
    chains = run_chains(generate, bench, config, problems, rounds=rounds, samples=samples,
                        store=store, resume=resume, round_reports=judged, **options)
    finals = {key: c for key, c in chains.items() if c.rounds}
    final_samples = [Sample(c.problem_id, c.sample, c.rounds[-1].completion)
                     for c in finals.values()]
    verdicts = {key: c.rounds[-1].verdict for key, c in finals.items()}
    report = score_run(bench, config, final_samples, verdicts, problems, k=k,
                       metrics=tuple(metrics), started=started)
    for row in report.per_sample:
        chain = chains[row["key"]]
        row["first_ac_round"] = chain.first_ac_round
        row["round_history"] = _history(chain, bench.feedback)
    report.refinement = refinement_summary(chains, rounds=rounds, samples=samples, k=k,
                                           wording=bench.feedback)
    # where evaluate records provenance (judge signature, environments, run facts), round 0's
    # judging (every problem) is the run's
    provenance = getattr(judged[0], "provenance", None) if judged else None
    if provenance is not None:
        report.provenance = provenance
    return report


def _history(chain: RefineResult, wording: FeedbackWording | None = None) -> list[dict[str, Any]]:
    """Each round of a chain: its answer (bounded, as the report keeps completions), verdict
    and the feedback its verdict gave the next round ('' for AC)."""
    from .scoring import report_completion

    return [{"round": i, "completion_hash": completion_hash(r.completion),
             "status": r.verdict.status, "error_class": r.verdict.error_class,
             "message": r.verdict.message, "feedback": feedback_prompt(r.verdict, wording),
             **report_completion(r.completion)}
            for i, r in enumerate(chain.rounds)]


def refinement_summary(chains: dict[str, RefineResult], *, rounds: int, samples: int,
                       k: Sequence[int], wording: FeedbackWording | None = None) -> dict[str, Any]:
    """The report's ``refinement`` section: after each round ``r = 0..rounds``, the chains
    solved, their share (``success_by_round``: the QCoder curve) and pass@k over problems
    (PennySynth's before/after repair), plus every chain's history (each round's feedback
    worded by ``wording``, the benchmark's)."""
    from .metrics.passk import pass_at_k

    by_problem: dict[str, list[int | None]] = {}
    for chain in chains.values():
        by_problem.setdefault(chain.problem_id, []).append(chain.first_ac_round)
    firsts = [f for fs in by_problem.values() for f in fs]
    solved = [sum(f is not None and f <= r for f in firsts) for r in range(rounds + 1)]
    pass_k = {}
    for kk in k:
        pass_k[f"pass@{kk}"] = [
            float(pass_at_k([len(fs) for fs in by_problem.values()],
                            [sum(f is not None and f <= r for f in fs) for fs in by_problem.values()],
                            kk)) if by_problem else None
            for r in range(rounds + 1)]
    return {
        "rounds": rounds, "round_numbering": ROUND_NUMBERING, "samples_per_problem": samples,
        "chains": len(chains), "problems": len(by_problem),
        "rounds_run": max((len(c.rounds) for c in chains.values()), default=0),
        "solved_by_round": solved,
        "success_by_round": [n / len(firsts) if firsts else None for n in solved],
        "pass@k_by_round": pass_k,
        "answers_by_round": [sum(len(c.rounds) > r for c in chains.values())
                             for r in range(rounds + 1)],
        "histories": [{"key": key, "problem_id": c.problem_id, "sample": c.sample,
                       "first_ac_round": c.first_ac_round, "rounds": _history(c, wording)}
                      for key, c in chains.items()],
    }


def _benchmark_of(problem: Any, judge: Any) -> Benchmark:
    from .benchmarks.base import registry

    if judge is not None and getattr(judge, "benchmark", None):
        return get(judge.benchmark)
    found = [b for b in registry().values() if isinstance(problem, b.record_type)]
    own = [b for b in found if b.module == type(problem).__module__]  # the record's home
    if own or len(found) == 1:
        return (own or found)[0]
    raise ValueError(f"cannot tell the benchmark of problem {problem!r}; pass judge=")


def refine(generate: Callable[[str], str], problem: Any, *, judge: Any = None,
           max_rounds: int = 5, sandbox: Any = None) -> RefineResult:
    """Generate, judge, feed back for one problem; stop at AC or after ``max_rounds`` answers
    (round 0 and ``max_rounds - 1`` repairs): the loop of :func:`refine_all` for one chain."""
    if not isinstance(max_rounds, int) or max_rounds < 1:
        raise ValueError("max_rounds must be at least 1")
    bench = _benchmark_of(problem, judge)
    pid = str(getattr(problem, "id", None) or getattr(problem, "task_id", None) or problem)

    def batch(requests: list[RefineRequest]) -> list[str]:
        out = []
        for request in requests:
            completion = generate(request.prompt)
            if not isinstance(completion, str):
                raise TypeError(f"generate() returned {type(completion).__name__}, not str "
                                f"(round {request.round})")
            out.append(completion)
        return out

    chains = run_chains(batch, bench, None, {pid: problem}, rounds=max_rounds - 1,
                        judge=judge, sandbox=sandbox)
    return chains[f"{pid}#0"]
