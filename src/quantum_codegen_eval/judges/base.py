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
judges a batch with one pool, stage by stage.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ..verdict import Verdict

#: a judge that asks for more stages than this is broken; the sample gets a judge-error verdict
MAX_STAGES = 16


class Judge(Protocol):
    benchmark: str

    def jobs(self, problem: Any, completion: str) -> list[Any] | Verdict: ...

    def decide(self, problem: Any, completion: str, results: list[Any]) -> list[Any] | Verdict: ...


def judge_error(judge: Any, problem_id: str, message: str) -> Verdict:
    """The verdict for a judge that failed (not the program's fault, never counted as AC)."""
    return Verdict(benchmark=getattr(judge, "benchmark", ""), problem_id=problem_id, status="RE",
                   message=f"judge error: {message}", details={"judge_error": True})


def judge_many(judge: Judge, items: Sequence[tuple[Any, str]], sandbox: Any = None,
               ) -> list[Verdict]:
    """Judge ``[(problem, completion), ...]``; verdicts in order. Stages run batched."""
    if sandbox is None:
        from ..execution import Sandbox

        with Sandbox() as sb:
            return judge_many(judge, items, sb)
    verdicts: list[Verdict | None] = [None] * len(items)
    results: dict[int, list[Any]] = {}
    pending: dict[int, list[Any]] = {}
    for i, (problem, completion) in enumerate(items):
        planned = judge.jobs(problem, completion)
        if isinstance(planned, Verdict):
            verdicts[i] = planned
        else:
            pending[i], results[i] = list(planned), []
    for _stage in range(MAX_STAGES):
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
        verdicts[i] = judge_error(judge, _pid(items[i][0]), f"more than {MAX_STAGES} stages")
    return [v for v in verdicts if v is not None]


def judge_one(judge: Judge, problem: Any, completion: str, sandbox: Any = None) -> Verdict:
    """Judge one completion, running its jobs in ``sandbox`` (a default one when ``None``)."""
    return judge_many(judge, [(problem, completion)], sandbox)[0]


def _pid(problem: Any) -> str:
    for attr in ("id", "task_id"):
        value = problem.get(attr) if isinstance(problem, dict) else getattr(problem, attr, None)
        if value:
            return str(value)
    return ""
