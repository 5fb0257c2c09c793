"""What every judge looks like.

A judge decides one program of one problem. It never reads the raw completion: the stage driver
takes the program out of it once, with the extraction rule the judge's benchmark declares
(``Benchmark.extract``, handed to the judge as ``judge.extract`` by ``Benchmark.make_judge``),
and gives the judge that code (:func:`code_of`; ``None``: the completion holds no code). A
judge made without its benchmark has no rule and is given the text as its code. The judge is
split so that ``evaluate`` can run the programs of many samples through one sandbox pool in
parallel, in *stages*:

* ``jobs(problem, code)`` turns the code into the first stage's programs (``list[Job]``), or
  returns a :class:`~quantum_codegen_eval.verdict.Verdict` straight away when the program can be
  decided without running it (no code: ``FORMAT``; a forbidden import: ``UME``; ...).
* ``decide(problem, code, results)`` gets the results of every stage so far, in job order,
  and returns the verdict, or the next stage's jobs. A later stage is how a judge checks the data
  the untrusted program produced in a process that ran no untrusted code (a fresh sandbox job
  whose source is the judge's own): the program only ever produces data, never a verdict.

``decide`` itself runs in the evaluator: it must treat every byte a job returned as hostile
(bounded, parsed in safe formats only) and a malformed payload is a verdict, never a crash.

A judge may also have ``prepare(problems)``: ``evaluate`` calls it once before planning, for
slow set-up that must not count in the judging progress (QHack: creating era environments).

``judge_one`` does all stages with a sandbox, for single use (``qce judge``); ``judge_many``
judges a batch with one pool, stage by stage. A judge never sets a verdict's error class: it
reports evidence in ``details`` (``verdict.EVIDENCE``) and ``judge_many`` (like ``evaluate``)
gives every verdict its class through ``verdict.with_error_class``, the one path.

A judge that is ``deterministic`` (the same verdict for the same input within one judge
instance: its random choices seeded, docs/evaluate.md says why for each) names that input with
``reads(problem, code)``: exactly the text its jobs and its decision depend on; an
optional ``repeatable(problem)`` excludes a problem whose check draws afresh on every judging.
``evaluate`` judges each distinct ``(problem, reads(...))`` once and gives its verdict to every copy
(:func:`program_key`).

What every staged judge shares (one code path, so that the judges differ only in their stages):

* :func:`code_of` extracts the code, bounded: a completion longer than
  :func:`completion_limit` (:data:`MAX_COMPLETION_CHARS`, or the judge's
  ``max_completion_chars``) is not read: a judge limitation (``code_size``).
* :func:`read_result` reads a job's JSON result, bounded, into a typed :class:`JobResult` (the
  sandbox's status, CPU and wall time, exit code, and the parsed value or one
  :class:`ResultFailure`: ``missing``, ``oversized`` or ``malformed``). It never raises.
* :func:`make_verdict` is the one way a judge builds its verdict: the status, the tests, the
  judge's details, and the error-class evidence as a typed :class:`Evidence` (never a class);
  :func:`judge_error` builds a judge error the same way, :func:`judge_limitation` the judge
  error of a sample the judge deliberately cannot judge (with its reason). :func:`run_timings` sums the runs'
  CPU and wall time for ``Verdict.timings``.
* :func:`limit_status` maps the sandbox's limits (and a ``MemoryError`` the limit caused) to
  ``TLE`` / ``MLE``, for every judge.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, get_args

from ..verdict import (
    EVIDENCE,
    JUDGE_LIMITATIONS,
    TestResult,
    Verdict,
    exception_in,
    with_error_class,
)

if TYPE_CHECKING:
    from ..execution import Job, RunResult

#: a judge's own work in this process (``jobs``, ``decide``, ``reads``) runs one call at a time
#: per process, whatever thread asks: CPython 3.11 keeps the AST converter's recursion depth in
#: interpreter-wide state, so ``ast.parse`` in two threads at once can fail with "SystemError: AST
#: constructor recursion depth mismatch" (cpython gh-106905 and kin); a harness scoring samples
#: from several threads (inspect_ai's scorer) turned that into judge errors that came and went
#: with the machine's load. The sandbox's jobs still run in parallel.
JUDGE_LOCK = threading.RLock()

#: the longest completion (characters) the driver extracts code from: past it the sample is a
#: judge limitation (``code_size``) decided without reading it. Extraction is linear, but a
#: judge's own work on the code is bounded by its own caps (QHack ``max_code_bytes``, QCoder and
#: the function-test judges ``MAX_CODE_CHARS``), far below this; a judge may declare its own
#: ``max_completion_chars``
MAX_COMPLETION_CHARS = 4_000_000

#: a job's wall clock allows this many times its CPU limit (:func:`wall_limit`), in every judge
#: that limits CPU time: a loaded machine must not turn a slow run into TLE, while a program
#: that sleeps or waits still ends
WALL_FACTOR = 3.0

#: a judge that asks for more stages than this is broken; the sample gets a judge-error verdict
#: (a judge may declare its own bound as ``max_stages``: :func:`stage_limit`)
MAX_STAGES = 16


class Judge(Protocol):
    benchmark: str
    #: the same ``reads(...)`` always gets the same verdict from this instance
    deterministic: bool

    def jobs(self, problem: Any, code: str | None) -> list[Job] | Verdict:
        """The first stage's sandbox jobs, or the verdict when nothing must run; ``code``: the
        program (:func:`code_of`), ``None`` when the completion holds none."""
        ...

    def decide(self, problem: Any, code: str | None, results: list[RunResult],
               ) -> list[Job] | Verdict:
        """The next stage's jobs, or the verdict; ``results``: every stage's runs so far, in
        job order (read them with :func:`read_result`)."""
        ...

    def reads(self, problem: Any, code: str | None) -> str | None: ...

    def signature(self) -> dict[str, Any]:
        """The options that can change a verdict (time limits, memory, seed, environment mode),
        as plain values: the judge part of a run's provenance (:mod:`..provenance`)."""
        ...


def completion_limit(judge: Any) -> int:
    """The longest completion ``judge`` is given code from: its ``max_completion_chars``, else
    :data:`MAX_COMPLETION_CHARS`."""
    return int(getattr(judge, "max_completion_chars", MAX_COMPLETION_CHARS))


def code_of(judge: Any, completion: Any, problem_id: str = "") -> str | None | Verdict:
    """The program ``judge`` decides in ``completion``: what its benchmark's extraction rule
    (``judge.extract``, handed over by ``Benchmark.make_judge``) takes from it, or the text itself
    for a judge made without a rule; ``None`` when it holds no code (or is not text). A
    completion over :func:`completion_limit` is not read: its verdict, a judge limitation
    (``code_size``), is returned instead."""
    if not isinstance(completion, str):
        return None
    limit = completion_limit(judge)
    if len(completion) > limit:
        return judge_limitation(judge, problem_id, "code_size",
                                f"judge limit: the completion has {len(completion):,} characters, "
                                f"over the judge's {limit:,} (not read)")
    rule = getattr(judge, "extract", None)
    if rule is None:
        return completion
    try:
        return rule(completion)
    except Exception as exc:  # a plugin's rule that fails loses this sample only
        return judge_error(judge, problem_id, f"failed to extract the code: "
                           f"{type(exc).__name__}: {exc}"[:1000])


def program_key(judge: Any, code: str | None, problem: Any) -> str | None:
    """A hash of what ``judge`` reads of ``code`` (:func:`code_of`) for ``problem``, or ``None``
    when copies must each be judged (a judge not declared ``deterministic``, without ``reads``, or whose
    ``repeatable(problem)`` says this problem's check draws afresh each time)."""
    if getattr(judge, "deterministic", False) is not True or not hasattr(judge, "reads"):
        return None
    repeatable = getattr(judge, "repeatable", None)
    if repeatable is not None and not repeatable(problem):
        return None
    with JUDGE_LOCK:
        text = judge.reads(problem, code)
    data = b"\x00" if text is None else b"\x01" + text.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:32]


def wall_limit(cpu_seconds: float, startup: float = 0.0) -> float:
    """The wall-clock limit of a job allowed ``cpu_seconds`` of CPU: :data:`WALL_FACTOR` times
    that, plus ``startup`` (a judge's allowance for starting an interpreter)."""
    return WALL_FACTOR * cpu_seconds + startup


def stage_limit(judge: Any) -> int:
    """How many stages ``judge`` may ask for: its ``max_stages``, else :data:`MAX_STAGES`."""
    return int(getattr(judge, "max_stages", MAX_STAGES))


def judge_signature(judge: Any) -> dict[str, Any]:
    """``judge.signature()``, or ``{"judge": <class name>}`` for a judge without one."""
    method = getattr(judge, "signature", None)
    return dict(method()) if callable(method) else {"judge": type(judge).__name__}


# ---------------------------------------------------------------- reading a job's result

ReadFailure = Literal["missing", "oversized", "malformed"]
#: why a job's JSON result could not be read (:class:`ResultFailure`)
READ_FAILURES: tuple[ReadFailure, ...] = get_args(ReadFailure)


@dataclass(frozen=True)
class ResultFailure:
    """Why a job's JSON result file could not be read: ``missing`` (not written),
    ``oversized`` (over the bound, never parsed: ``size`` and ``limit`` in bytes, or in
    estimated parsed bytes when ``parsed``), ``malformed`` (empty, not JSON, or nested deeper
    than :data:`MAX_RESULT_DEPTH`)."""

    name: str
    reason: ReadFailure
    size: int = 0
    limit: int = 0
    parsed: bool = False
    detail: str = ""

    def __post_init__(self) -> None:
        if self.reason not in READ_FAILURES:
            raise ValueError(f"unknown read failure {self.reason!r}; expected one of "
                             f"{READ_FAILURES}")

    def __str__(self) -> str:
        if self.reason == "missing":
            return f"no {self.name}"
        if self.reason == "oversized":
            what = "parsed, would take about" if self.parsed else "has"
            return f"{self.name} {what} {self.size:,} bytes, over {self.limit:,}"
        return f"{self.name} is malformed ({self.detail})"


@dataclass(frozen=True)
class JobResult:
    """One job's run as a judge reads it: the sandbox's facts and the job's JSON result
    (``value``), or why the result could not be read (``failure``)."""

    id: str
    #: the sandbox's status (``execution.STATUSES``: ok, error, timeout, memory, ...)
    status: str
    exit_code: int | None
    signal: int | None
    cpu_time: float
    wall_time: float
    value: Any = None
    failure: ResultFailure | None = None

    @property
    def read(self) -> bool:
        """The result was read (``value`` holds it)."""
        return self.failure is None

    @property
    def limit_status(self) -> str | None:
        """``TLE`` or ``MLE`` when the sandbox stopped the job at its time or memory limit."""
        return limit_status(self.status)


def job_hash_seed(seed: int) -> int:
    """The ``PYTHONHASHSEED`` (and ``random`` / NumPy global seed) of every job a judge with
    this ``seed`` runs: set order and unseeded draws, hence verdicts, are the same in every
    worker and every run with that seed (a judge records it in its ``signature``)."""
    return int(seed) % 2**32


def limit_status(status: str, *, memory_error: bool = False) -> str | None:
    """The one mapping from a job's limits to a verdict, which every judge calls: ``TLE`` when
    the sandbox stopped the job at its time limit (status ``timeout``); ``MLE`` when the job ran
    out of its memory limit, wherever that surfaced: the sandbox's ``memory`` status (an
    uncaught ``MemoryError``, an allocation abort) or ``memory_error``, the job's harness saw
    the program's code raise a ``MemoryError`` (NumPy's ``_ArrayMemoryError`` included, also as
    the cause or context of another exception) that the harness or the program caught. Under
    the sandbox's address-space limit a failed allocation is what raises one; a program that
    raises one itself turns its own RE into MLE, no pass. ``None`` otherwise."""
    if status == "timeout":
        return "TLE"
    if status == "memory" or memory_error:
        return "MLE"
    return None


def parsed_cost(raw: bytes) -> int:
    """An estimate of the bytes ``json.loads(raw)`` takes, counted on the raw bytes: a one-key
    object ~200 bytes, an array ~72, a string ~60 (its contents included), an item 8. Objects,
    arrays and strings are counted from above; a number only at its text and 8 bytes, under the
    24-32 it takes parsed (an array of floats takes up to 3 times its estimate)."""
    return (200 * raw.count(b"{") + 72 * raw.count(b"[") + 30 * raw.count(b'"')
            + 8 * raw.count(b",") + len(raw))


def read_result(run: RunResult, name: str, max_bytes: int, *, max_parsed: int | None = None,
                lines: bool = False) -> JobResult:
    """The JSON result file ``name`` of ``run``, read bounded: a file over ``max_bytes`` (or,
    with ``max_parsed``, one whose :func:`parsed_cost` is over it) is never parsed. With
    ``lines``, the file is JSON lines: ``value`` is the list of parsed lines, ``None`` for a
    line that is not JSON (a job that died mid-write leaves the lines before). Whatever a job
    wrote gives a :class:`JobResult`; this never raises."""
    raw = (run.files or {}).get(name)
    failure, value = None, None
    if raw is None:
        failure = ResultFailure(name, "missing")
    elif len(raw) > max_bytes:
        failure = ResultFailure(name, "oversized", len(raw), max_bytes)
    elif max_parsed is not None and (cost := parsed_cost(raw)) > max_parsed:
        failure = ResultFailure(name, "oversized", cost, max_parsed, parsed=True)
    elif lines:
        value = [_loads(line)[0] for line in raw.splitlines()]
    else:
        value, why = _loads(raw)
        if why:
            failure = ResultFailure(name, "malformed", len(raw), max_bytes, detail=why)
    return JobResult(id=run.id, status=run.status, exit_code=run.exit_code, signal=run.signal,
                     cpu_time=run.cpu_time or 0.0, wall_time=run.wall_time or 0.0,
                     value=value, failure=failure)


#: the deepest nesting of arrays and objects a job's JSON result may have (the same bound on
#: every Python: json.loads alone fails at about 1000 on 3.10/3.11 and parses 5000 on 3.13)
MAX_RESULT_DEPTH = 500
_BRACKETS = bytes(range(256)).translate(None, b"[]{}")  # every byte but the brackets
_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def json_depth(raw: bytes) -> int:
    """The deepest nesting of arrays and objects in the JSON text ``raw`` (brackets inside
    strings do not count), counted without parsing.

    >>> json_depth(b'{"a": [1, [2]], "b": "[[["}'), json_depth(b'"x"')
    (3, 0)
    """
    outside = b"".join(re.sub(rb"\\.", b"", raw, flags=re.DOTALL).split(b'"')[::2])
    steps = map(_DEPTH_STEP.__getitem__, outside.translate(None, _BRACKETS))
    return max(0, max(itertools.accumulate(steps), default=0))


def _loads(raw: bytes) -> tuple[Any, str]:
    if raw.count(b"[") + raw.count(b"{") > MAX_RESULT_DEPTH and \
            (depth := json_depth(raw)) > MAX_RESULT_DEPTH:
        return None, f"nested {depth} deep, over {MAX_RESULT_DEPTH}"
    try:
        return json.loads(raw), ""
    except (ValueError, RecursionError) as exc:  # not UTF-8 or not JSON
        return None, f"{type(exc).__name__}: {exc}"[:200]


def run_timings(runs: Sequence[RunResult | JobResult]) -> dict[str, float]:
    """``Verdict.timings`` of a judging: the wall and CPU seconds of its runs, summed."""
    return {"wall_time": sum(r.wall_time or 0.0 for r in runs),
            "cpu_time": sum(r.cpu_time or 0.0 for r in runs)}


# ---------------------------------------------------------------- building a verdict

@dataclass(frozen=True)
class Evidence:
    """What a judge saw of a failure, for ``verdict.with_error_class`` (which alone gives the
    class; ``verdict.EVIDENCE`` names the keys): the exception raised, the hallucinated names
    (or ``True`` when only the message showed one), an exception raised inside the quantum
    framework from the program's code, the program breaking the judge's calling contract."""

    exception_type: str | None = None
    hallucinated: tuple[str, ...] | bool = False
    raised_in_framework: bool = False
    broke_contract: bool = False

    @classmethod
    def from_error(cls, error: str) -> Evidence:
        """The exception an error text (a traceback) ends with; without one, the program broke
        the contract (it did not load as the harness expects, ended the process, ...)."""
        exc = exception_in(error)
        return cls(exception_type=exc) if exc else cls(broke_contract=True)

    def details(self) -> dict[str, Any]:
        """The ``Verdict.details`` entries of this evidence (only what was seen)."""
        out: dict[str, Any] = {}
        if self.exception_type:
            out["exception_type"] = self.exception_type
        if self.hallucinated:
            out["hallucinated"] = (True if self.hallucinated is True
                                   else list(self.hallucinated))
        if self.raised_in_framework:
            out["raised_in_framework"] = True
        if self.broke_contract:
            out["broke_contract"] = True
        return out


def make_verdict(judge: Any, problem_id: str, status: str, message: str = "", *,
                 tests: Sequence[TestResult] = (), tests_total: int | None = None,
                 tests_passed: int | None = None, evidence: Evidence | None = None,
                 details: Mapping[str, Any] | None = None,
                 timings: Mapping[str, float] | None = None) -> Verdict:
    """The one way a judge builds its verdict. ``tests_passed`` / ``tests_total`` default to
    the passed / all of ``tests``; ``details`` are the judge's own (evidence keys are refused
    there: they come as ``evidence``). The class is left to ``verdict.with_error_class``."""
    own = dict(details or {})
    clash = sorted(set(own) & set(EVIDENCE))
    if clash:
        raise ValueError(f"error-class evidence {clash} must be given as evidence=Evidence(...)")
    tests = list(tests)
    return Verdict(benchmark=getattr(judge, "benchmark", ""), problem_id=problem_id,
                   status=status,
                   tests_passed=sum(t.passed for t in tests) if tests_passed is None
                   else tests_passed,
                   tests_total=len(tests) if tests_total is None else tests_total,
                   tests=tests, message=message, timings=dict(timings or {}),
                   details={**own, **(evidence.details() if evidence else {})})


def judge_error(judge: Any, problem_id: str, message: str, *,
                tests: Sequence[TestResult] = (), tests_total: int | None = None,
                details: Mapping[str, Any] | None = None,
                timings: Mapping[str, float] | None = None) -> Verdict:
    """The verdict for a judge that failed (not the program's fault, never counted as AC);
    ``details`` may carry what the judge saw (an exception type: no class is given anyway)."""
    own = dict(details or {})
    evidence = Evidence(**{k: own.pop(k) for k in EVIDENCE if k in own})
    return make_verdict(judge, problem_id, "RE", f"judge error: {message}", tests=tests,
                        tests_total=tests_total, evidence=evidence,
                        details={"judge_error": True, **own}, timings=timings)


def judge_limitation(judge: Any, problem_id: str, reason: str, message: str, *,
                     tests: Sequence[TestResult] = (), tests_total: int | None = None,
                     timings: Mapping[str, float] | None = None, **details: Any) -> Verdict:
    """The verdict for a sample this judge deliberately cannot judge (a judge limitation, e.g.
    more oracle rounds than it runs): a judge error (:func:`judge_error`) whose
    ``details["judge_limitation"]`` is the short ``reason`` kind (``verdict.JUDGE_LIMITATIONS``),
    ``details`` the rest of ``Verdict.details``. Never a pass, never an error class; the report
    lists it by reason and gives pass@k also without these samples. Only for what the judge
    itself established (its own bounds, its trusted jobs, or the contest's own rule applied by the
    judge to the program's answer: QHack's ``oracle_in_process``), never for what the program's
    process reported: that could be forged to leave a failure out of pass@k."""
    if reason not in JUDGE_LIMITATIONS:
        raise ValueError(f"unknown judge limitation {reason!r}; expected one of "
                         f"{sorted(JUDGE_LIMITATIONS)}")
    return judge_error(judge, problem_id, message, tests=tests, tests_total=tests_total,
                       timings=timings, details={**details, "judge_limitation": reason})


def judge_many(judge: Judge, items: Sequence[tuple[Any, str]], sandbox: Any = None,
               ) -> list[Verdict]:
    """Judge ``[(problem, completion), ...]``; verdicts in order, each classified by
    ``verdict.with_error_class``. Each completion's code is taken out once (:func:`code_of`);
    the stages run through :func:`drive_stages` (as in ``evaluate``); without a ``sandbox`` a
    default one is started when some job must run."""
    verdicts: list[Verdict | None] = [None] * len(items)
    planned: dict[str, Planned] = {}
    for i, (problem, completion) in enumerate(items):
        code = code_of(judge, completion, _pid(problem))
        first = code if isinstance(code, Verdict) else plan(judge, problem, code, _pid(problem))
        if isinstance(first, Verdict):
            verdicts[i] = first
        else:
            planned[str(i)] = Planned(problem, _pid(problem), code, first)

    def finish(key: str, verdict: Verdict) -> None:
        verdicts[int(key)] = verdict

    if planned and sandbox is None:
        from ..execution import Sandbox

        with Sandbox() as sb:
            drive_stages(judge, planned, sb, finish)
    elif planned:
        drive_stages(judge, planned, sandbox, finish)
    return [with_error_class(v) for v in verdicts if v is not None]


def plan(judge: Judge, problem: Any, code: str | None, problem_id: str) -> Verdict | list[Job]:
    """The first stage of one sample: ``judge.jobs`` on its code (:func:`code_of`), a judge bug
    being this sample's judge error (never the run's)."""
    try:
        with JUDGE_LOCK:
            planned = judge.jobs(problem, code)
    except Exception as exc:
        return judge_error(judge, problem_id, f"failed to plan: {type(exc).__name__}: {exc}"[:1000])
    return planned if isinstance(planned, Verdict) else list(planned)


@dataclass(frozen=True)
class Planned:
    """A sample on its way through the stages: what ``decide`` needs, and its first jobs."""

    problem: Any
    problem_id: str
    code: str | None  #: :func:`code_of` the completion
    jobs: list[Job]


def drive_stages(judge: Judge, planned: Mapping[str, Planned], sandbox: Any,
                 finish: Callable[[str, Verdict], None], *, slots: Callable[[], int] | None = None,
                 tick: Callable[[], None] | None = None) -> None:
    """The one stage driver (``judge_many``, ``evaluate``, the sweep): every sample's jobs go
    through one pool (``sandbox.submit``), and a sample is decided when the last job of its
    current stage is back: ``decide`` returns the verdict (``finish(key, verdict)``) or the next
    stage's jobs. A sample's later stage runs before other samples' first stages, so a sample
    started is finished first; at most ``slots()`` jobs are in the pool at a time (default: the
    sandbox's workers). ``tick`` is called about twice a second (a progress bar)."""
    import heapq
    import itertools
    from concurrent.futures import FIRST_COMPLETED, wait
    from dataclasses import replace

    limit = stage_limit(judge)
    order = itertools.count()
    results: dict[str, list[Any]] = {}
    waiting: dict[str, int] = {}
    stages: dict[str, int] = {}
    futures: dict[Any, tuple[str, int, str]] = {}  # future -> (sample key, result index, job id)
    queue: list[tuple[int, int, str, int, Any]] = []  # (-stage, order, key, index, job)
    if slots is None:
        fixed = max(1, int(getattr(sandbox, "workers", 1) or 1))

        def slots() -> int:
            return fixed

    def submit(key: str, jobs: list[Any]) -> None:
        start = len(results.setdefault(key, []))
        results[key].extend([None] * len(jobs))
        waiting[key] = len(jobs)
        stages[key] = stages.get(key, 0) + 1
        for j, job in enumerate(jobs):
            heapq.heappush(queue, (-stages[key], next(order), key, start + j, job))

    def feed() -> None:
        room = slots()
        while queue and len(futures) < room:
            _, _, key, index, job = heapq.heappop(queue)
            # pool-wide unique ids; the judge gets its own back
            f = sandbox.submit(replace(job, id=f"{key}::{index}"))
            futures[f] = (key, index, job.id)

    def step(key: str) -> None:
        sample = planned[key]
        try:
            with JUDGE_LOCK:
                out = judge.decide(sample.problem, sample.code, results[key])
        except Exception as exc:  # a judge bug must not lose the other samples
            out = judge_error(judge, sample.problem_id,
                              f"failed to decide: {type(exc).__name__}: {exc}")
        if isinstance(out, Verdict):
            finish(key, out)
        elif not out:
            finish(key, judge_error(judge, sample.problem_id, "decide() returned no verdict"))
        elif stages[key] >= limit:
            finish(key, judge_error(judge, sample.problem_id, f"more than {limit} stages"))
        else:
            submit(key, list(out))

    for key, sample in planned.items():
        if sample.jobs:
            submit(key, list(sample.jobs))
        else:
            stages[key] = 1
            results[key] = []
            step(key)
    feed()
    while futures:
        done, _ = wait(list(futures), timeout=0.5, return_when=FIRST_COMPLETED)
        if tick is not None:
            tick()
        for f in done:
            key, index, job_id = futures.pop(f)
            results[key][index] = replace(f.result(), id=job_id)
            waiting[key] -= 1
            if waiting[key] == 0:
                step(key)
        feed()


def judge_one(judge: Judge, problem: Any, completion: str, sandbox: Any = None) -> Verdict:
    """Judge one completion, running its jobs in ``sandbox`` (a default one when ``None``)."""
    return judge_many(judge, [(problem, completion)], sandbox)[0]


def _pid(problem: Any) -> str:
    for attr in ("id", "task_id"):
        value = problem.get(attr) if isinstance(problem, dict) else getattr(problem, attr, None)
        if value:
            return str(value)
    return ""
