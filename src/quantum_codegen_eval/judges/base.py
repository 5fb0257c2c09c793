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
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Protocol

from ..verdict import Verdict, with_error_class

#: a judge that asks for more stages than this is broken; the sample gets a judge-error verdict
#: (a judge may declare its own bound as ``max_stages``: :func:`stage_limit`)
MAX_STAGES = 16


class Judge(Protocol):
    benchmark: str
    #: the same ``reads(...)`` always gets the same verdict from this instance
    deterministic: bool

    def jobs(self, problem: Any, completion: str) -> list[Any] | Verdict: ...

    def decide(self, problem: Any, completion: str, results: list[Any]) -> list[Any] | Verdict: ...

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


def judge_error(judge: Any, problem_id: str, message: str) -> Verdict:
    """The verdict for a judge that failed (not the program's fault, never counted as AC)."""
    return Verdict(benchmark=getattr(judge, "benchmark", ""), problem_id=problem_id, status="RE",
                   message=f"judge error: {message}", details={"judge_error": True})


def judge_many(judge: Judge, items: Sequence[tuple[Any, str]], sandbox: Any = None,
               ) -> list[Verdict]:
    """Judge ``[(problem, completion), ...]``; verdicts in order, each classified by
    ``verdict.with_error_class``. Stages run batched; without a ``sandbox`` a default one is
    started when some job must run."""
    verdicts: list[Verdict | None] = [None] * len(items)
    results: dict[int, list[Any]] = {}
    pending: dict[int, list[Any]] = {}
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
                verdicts: list[Verdict | None], results: dict[int, list[Any]],
                pending: dict[int, list[Any]]) -> None:
    limit = stage_limit(judge)
    for _stage in range(limit):
        if not pending:
            break
        order = [(i, job) for i, jobs in pending.items() for job in jobs]
        out = sandbox.run_jobs([job for _, job in order])
        for (i, _), r in zip(order, out, strict=True):
            results[i].append(r)
        nxt: dict[int, list[Any]] = {}
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
