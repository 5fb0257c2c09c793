"""What every judge looks like.

A judge decides one completion of one problem. It is split so that ``evaluate`` can run the
programs of many samples through one sandbox pool in parallel, in *stages*:

* ``jobs(problem, completion)`` turns the completion into the first stage's programs
  (``list[Job]``), or returns a :class:`~quantum_codegen_eval.verdict.Verdict` straight away when
  the completion can be decided without running it (no code block: ``FORMAT``; a forbidden
  import: ``UME``; ...).
* ``decide(problem, completion, results)`` gets the results of every stage so far, in job order,
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
``reads(problem, completion)``: exactly the text its jobs and its decision depend on; an
optional ``repeatable(problem)`` excludes a problem whose check draws afresh on every judging.
``evaluate`` judges each distinct ``(problem, reads(...))`` once and gives its verdict to every copy
(:func:`program_key`).

What every staged judge shares (one code path, so that the judges differ only in their stages):

* :func:`read_result` reads a job's JSON result, bounded, into a typed :class:`JobResult` (the
  sandbox's status, CPU and wall time, exit code, and the parsed value or one
  :class:`ResultFailure`: ``missing``, ``oversized`` or ``malformed``). It never raises.
* :func:`make_verdict` is the one way a judge builds its verdict: the status, the tests, the
  judge's details, and the error-class evidence as a typed :class:`Evidence` (never a class);
  :func:`judge_error` builds a judge error the same way. :func:`run_timings` sums the runs'
  CPU and wall time for ``Verdict.timings``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, get_args

from ..verdict import EVIDENCE, TestResult, Verdict, exception_in, with_error_class

if TYPE_CHECKING:
    from ..execution import Job, RunResult

#: a judge that asks for more stages than this is broken; the sample gets a judge-error verdict
#: (a judge may declare its own bound as ``max_stages``: :func:`stage_limit`)
MAX_STAGES = 16


class Judge(Protocol):
    benchmark: str
    #: the same ``reads(...)`` always gets the same verdict from this instance
    deterministic: bool

    def jobs(self, problem: Any, completion: str) -> list[Job] | Verdict:
        """The first stage's sandbox jobs, or the verdict when nothing must run."""
        ...

    def decide(self, problem: Any, completion: str, results: list[RunResult],
               ) -> list[Job] | Verdict:
        """The next stage's jobs, or the verdict; ``results``: every stage's runs so far, in
        job order (read them with :func:`read_result`)."""
        ...

    def reads(self, problem: Any, completion: str) -> str | None: ...

    def signature(self) -> dict[str, Any]:
        """The options that can change a verdict (time limits, memory, seed, environment mode),
        as plain values: the judge part of a run's provenance (:mod:`..provenance`)."""
        ...


def program_key(judge: Any, completion: str, problem: Any) -> str | None:
    """A hash of what ``judge`` reads of ``completion`` for ``problem``, or ``None`` when copies
    must each be judged (a judge not declared ``deterministic``, without ``reads``, or whose
    ``repeatable(problem)`` says this problem's check draws afresh each time)."""
    if getattr(judge, "deterministic", False) is not True or not hasattr(judge, "reads"):
        return None
    repeatable = getattr(judge, "repeatable", None)
    if repeatable is not None and not repeatable(problem):
        return None
    text = judge.reads(problem, completion)
    data = b"\x00" if text is None else b"\x01" + text.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:32]


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
        return {"timeout": "TLE", "memory": "MLE"}.get(self.status)


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


def judge_many(judge: Judge, items: Sequence[tuple[Any, str]], sandbox: Any = None,
               ) -> list[Verdict]:
    """Judge ``[(problem, completion), ...]``; verdicts in order, each classified by
    ``verdict.with_error_class``. Stages run batched; without a ``sandbox`` a default one is
    started when some job must run."""
    verdicts: list[Verdict | None] = [None] * len(items)
    results: dict[int, list[RunResult]] = {}
    pending: dict[int, list[Job]] = {}
    for i, (problem, completion) in enumerate(items):
        try:
            planned = judge.jobs(problem, completion)
        except Exception as exc:  # as evaluate does: a judge bug is this sample's judge error
            planned = judge_error(judge, _pid(problem),
                                  f"failed to plan: {type(exc).__name__}: {exc}"[:1000])
        if isinstance(planned, Verdict):
            verdicts[i] = planned
        else:
            pending[i], results[i] = list(planned), []
    if pending and sandbox is None:
        from ..execution import Sandbox

        with Sandbox() as sb:
            _run_stages(judge, items, sb, verdicts, results, pending)
    elif pending:
        _run_stages(judge, items, sandbox, verdicts, results, pending)
    return [with_error_class(v) for v in verdicts if v is not None]


def _run_stages(judge: Judge, items: Sequence[tuple[Any, str]], sandbox: Any,
                verdicts: list[Verdict | None], results: dict[int, list[RunResult]],
                pending: dict[int, list[Job]]) -> None:
    limit = stage_limit(judge)
    for _stage in range(limit):
        if not pending:
            break
        order = [(i, job) for i, jobs in pending.items() for job in jobs]
        out = sandbox.run_jobs([job for _, job in order])
        for (i, _), r in zip(order, out, strict=True):
            results[i].append(r)
        nxt: dict[int, list[Job]] = {}
        for i in pending:
            problem, completion = items[i]
            try:
                step = judge.decide(problem, completion, results[i])
            except Exception as exc:  # a judge bug must not lose the other samples
                step = judge_error(judge, _pid(problem),
                                   f"failed to decide: {type(exc).__name__}: {exc}")
            if isinstance(step, Verdict):
                verdicts[i] = step
            elif step:
                nxt[i] = list(step)
            else:
                verdicts[i] = judge_error(judge, _pid(problem), "decide() returned no verdict")
        pending = nxt
    for i in pending:
        verdicts[i] = judge_error(judge, _pid(items[i][0]), f"more than {limit} stages")


def judge_one(judge: Judge, problem: Any, completion: str, sandbox: Any = None) -> Verdict:
    """Judge one completion, running its jobs in ``sandbox`` (a default one when ``None``)."""
    return judge_many(judge, [(problem, completion)], sandbox)[0]


def _pid(problem: Any) -> str:
    for attr in ("id", "task_id"):
        value = problem.get(attr) if isinstance(problem, dict) else getattr(problem, attr, None)
        if value:
            return str(value)
    return ""
