"""The bookkeeping under :mod:`.evaluate`'s units: the :class:`Plan` of a run (its verdicts and
identical programs), the result store's records, the progress bar and closing what a run opened.

The units themselves (``open_store``, ``plan_samples``, ``judge_plan``, ``score_run``) are in
:mod:`.evaluate`, in the order of the path; nothing here judges.
"""

from __future__ import annotations

import hashlib
import signal
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .judges.base import code_of, program_key
from .predictions import Sample
from .verdict import Verdict, with_error_class

if TYPE_CHECKING:
    from .benchmarks.base import Benchmark
    from .execution import Job, ResultStore

#: seconds between two progress lines when stderr is not a terminal (a log file)
LOG_INTERVAL = 30.0


def completion_hash(completion: str) -> str:
    return hashlib.sha256(completion.encode("utf-8", "surrogatepass")).hexdigest()[:16]


class Progress:
    """A progress bar shown from the start (worker warm-up included), refreshed while waiting
    so the clock moves; into a log (stderr not a terminal) a line at most every
    ``LOG_INTERVAL`` seconds; a no-op when disabled."""

    def __init__(self, total: int, enabled: bool, done: int = 0):
        self.bar = None
        self.tty = sys.stderr.isatty()
        if enabled and total:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, initial=done, unit="sample", file=sys.stderr,
                            leave=not self.tty, desc="judging (starting workers)",
                            **({} if self.tty else {"mininterval": LOG_INTERVAL,
                                                    "maxinterval": LOG_INTERVAL}))
        self.started = False

    def update(self, n: int = 1) -> None:
        if self.bar is not None:
            if not self.started:
                self.started = True
                self.bar.set_description("judging", refresh=False)
            self.bar.update(n)

    def refresh(self) -> None:
        if self.bar is not None and self.tty:
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def status_line(message: str, enabled: bool) -> None:
    """One line on stderr (``loading ...``, ``scoring ...``) when ``enabled``."""
    if enabled:
        print(message, file=sys.stderr, flush=True)


def _stop(sandbox: Any, store: Any, bar: Progress) -> None:
    """Close what a run opened (idempotent); a second Ctrl-C meanwhile is ignored."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        bar.close()
        if sandbox is not None:
            sandbox.close()  # kills the jobs still running
        if store is not None:
            store.close()
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


Program = tuple[str, str]  # (problem id, program key)


@dataclass
class Plan:
    """A run once planned (:func:`.evaluate.plan_samples`) and, after
    :func:`.evaluate.judge_plan`, judged: every sample's verdict by key (``verdicts``; those
    decided at once: stored, copies of a decided program, ``FORMAT``, unknown ids, a judge's
    verdict without a job), the samples to judge with their first stage's jobs (``jobs``), and
    the bookkeeping of identical programs: a program's first copy (its leader) is judged, later
    copies wait for it (``copies``) or reuse a decided verdict (``decided``). Every verdict is
    appended to ``store`` as it is decided; ``bar`` counts them."""

    bench: Benchmark
    config: str | None
    judge: Any
    problems: dict[str, Any]
    samples: list[Sample]
    #: sample key -> its program, for the samples whose copies may share a verdict
    programs: dict[str, Program]
    #: sample key -> the code the judge is given (``judges.base.code_of``: the benchmark's
    #: extraction rule, once per sample; a verdict when the completion is not read)
    codes: dict[str, str | None | Verdict] = field(default_factory=dict)
    judge_copies: bool = False
    store: ResultStore | None = None
    bar: Progress = field(default_factory=lambda: Progress(0, False))
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    jobs: dict[str, tuple[Sample, list[Job]]] = field(default_factory=dict)
    #: program -> (key of the sample judged for it, its verdict)
    decided: dict[Program, tuple[str, Verdict]] = field(default_factory=dict)
    leaders: dict[Program, str] = field(default_factory=dict)  # program -> leader key
    copies: dict[str, list[Sample]] = field(default_factory=dict)  # leader key -> waiting copies

    @property
    def store_path(self) -> Path | None:
        return self.store.path if self.store is not None else None

    def group(self, sample: Sample) -> Program | None:
        """The program ``sample`` shares a verdict with (``None``: judged on its own)."""
        return None if self.judge_copies else self.programs.get(sample.key)

    def finish(self, sample: Sample, verdict: Verdict, *, same_as: str | None = None,
               group: Program | None = None) -> list[Sample]:
        """Record ``sample``'s verdict (stored at once); returns the copies it decides too."""
        verdict = with_error_class(verdict)
        self.verdicts[sample.key] = verdict
        if self.store is not None:
            _save(self.store, sample, verdict, (self.bench.name, self.config),
                  program=group[1] if group else None, same_as=same_as)
        if group is not None and same_as is None:
            self.decided.setdefault(group, (sample.key, verdict))
        waiting = self.copies.pop(sample.key, [])
        for copy in waiting:
            self.finish(copy, verdict, same_as=sample.key, group=group)
        return waiting

    def kept(self) -> str:
        """``N of M results kept`` (the verdicts decided so far, all in the store)."""
        return f"{len(self.verdicts)} of {len(self.samples)} results kept"

    def program_counts(self) -> dict[str, Any]:
        """``summary["programs"]``: distinct / total; a sample without a program key counts as
        a distinct program."""
        distinct = (len(set(self.programs.values()))
                    + sum(s.key not in self.programs for s in self.samples))
        return {"samples": len(self.samples), "distinct": distinct,
                "copies": len(self.samples) - distinct, "copies_judged_once": not self.judge_copies}

    def interpreters(self) -> dict[str, str | None]:
        """The interpreters the planned jobs name -> the benchmark's environment of that path."""
        paths = {job.python for _, jobs in self.jobs.values() for job in jobs
                 if getattr(job, "python", None)}
        names: dict[str, str] = {}
        if paths and self.bench.environments:
            manager = self.bench.loader.environments()
            for name in self.bench.environments:
                try:
                    names[str(manager.env_python(name, create=False))] = name
                except (FileNotFoundError, ValueError):
                    continue
        return {p: names.get(p) for p in sorted(paths)}

    def close(self, sandbox: Any = None) -> None:
        """Close the bar, ``sandbox`` (an own one) and the store (idempotent)."""
        _stop(sandbox, self.store, self.bar)


def sample_codes(samples: list[Sample], problems: dict[str, Any], judge: Any
                 ) -> dict[str, str | None | Verdict]:
    """sample key -> the code ``judge`` is given (:func:`.judges.base.code_of`), for the
    samples of a known problem."""
    return {s.key: code_of(judge, s.completion, s.problem_id) for s in samples
            if not s.format_error and s.problem_id in problems}


def program_keys(samples: list[Sample], problems: dict[str, Any], judge: Any,
                 codes: dict[str, str | None | Verdict]) -> dict[str, Program]:
    """sample key -> (problem id, program key) for the samples a copy of which may share a
    verdict (a known problem, a deterministic judge; ``codes``: :func:`sample_codes`)."""
    out: dict[str, Program] = {}
    for s in samples:
        code = codes.get(s.key)
        if s.key not in codes or isinstance(code, Verdict):
            continue
        try:
            key = program_key(judge, code, problems[s.problem_id])
        except Exception:  # noqa: BLE001 - judged on its own; the judge will say what is wrong
            key = None
        if key is not None:
            out[s.key] = (s.problem_id, key)
    return out


def stored_programs(records: Iterable[dict[str, Any]], benchmark: str, config: str | None
                    ) -> dict[Program, dict[str, Any]]:
    """(problem id, program key) -> the first stored record judged for it in this benchmark
    and config (a resumed copy reuses it)."""
    out: dict[Program, dict[str, Any]] = {}
    for rec in records:
        program = rec.get("program_key")
        if (isinstance(program, str) and isinstance(rec.get("problem_id"), str)
                and (rec.get("benchmark"), rec.get("config")) == (benchmark, config)):
            out.setdefault((rec["problem_id"], program), rec)
    return out


def stored_program(store: Any, record: dict[str, Any], sample: Sample) -> tuple[str, Verdict]:
    """A stored verdict of the same program, for a copy judged in no earlier run."""
    try:
        verdict = Verdict.from_dict(record["verdict"])
    except Exception as exc:  # noqa: BLE001 - a hand-edited or foreign record
        raise ValueError(f"result store {store}: {record.get('key')}: unreadable stored verdict "
                         f"({type(exc).__name__}); use a new store") from None
    if verdict.problem_id != sample.problem_id:
        raise ValueError(f"result store {store}: {record.get('key')} holds a verdict of "
                         f"{verdict.problem_id!r}, not {sample.problem_id!r}; use a new store")
    return str(record.get("key")), with_error_class(verdict)


def stored_verdict(store: Any, prior: dict[str, Any], sample: Sample, benchmark: str,
                   config: str | None) -> Verdict:
    """The verdict a resumed run reuses: only one judged in the same benchmark and config, for
    the byte-identical completion; anything else is an error naming the store and the sample."""
    where = f"result store {store}: {sample.key}"
    if prior.get("completion_hash") != completion_hash(sample.completion):
        raise ValueError(f"{where} was judged for a different completion than {sample.source} "
                         "gives now; use a new store for changed predictions")
    try:
        verdict = Verdict.from_dict(prior["verdict"])
    except Exception as exc:  # noqa: BLE001 - a hand-edited or foreign record
        raise ValueError(f"{where}: unreadable stored verdict ({type(exc).__name__}); use a new "
                         "store") from None
    was = (prior.get("benchmark", benchmark), prior.get("config", config))  # older stores: unchecked
    if was != (benchmark, config) or verdict.problem_id != sample.problem_id:
        raise ValueError(f"{where} was judged in another run ({was[0]}, config {was[1]!r}; this "
                         f"run: {benchmark}, config {config!r}); use a new store")
    return verdict


def _save(store: Any, sample: Sample, verdict: Verdict, run: tuple[str, str | None], *,
          program: str | None = None, same_as: str | None = None) -> None:
    record = {"key": sample.key, "problem_id": sample.problem_id, "sample": sample.index,
              "benchmark": run[0], "config": run[1],
              "completion_hash": completion_hash(sample.completion), "verdict": verdict.to_dict()}
    if program is not None:
        record["program_key"] = program
    if same_as is not None:
        record["same_program_as"] = same_as
    store.add(record)
