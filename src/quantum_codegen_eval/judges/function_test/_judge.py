"""The function-test judge: the task's test runs in a trusted process, the candidate's program
in the sandbox, reached through a proxy; a subclass is its test program and nothing else.

A subclass says what runs trusted (:meth:`FunctionTestJudge.test_source`), the candidate's
program (:meth:`~FunctionTestJudge.program`, by default the code it is given), the function(s)
the test calls (:meth:`~FunctionTestJudge.functions`, by default the task's ``entry_point``) and
the invocation style :attr:`~FunctionTestJudge.style`: ``"check"`` calls the test's
``check(candidate)`` (HumanEval); ``"tests"`` calls the test functions
:meth:`~FunctionTestJudge.tests` names (by default every top-level ``test_*``, in order) with
the candidate's functions bound as the test's globals of those names (Quantum Katas's tests call
``state_flip(qc, 0)`` directly).

One stage (judges/base.py): a trusted job runs the test against a proxy, linked live to the
candidate's job (``Job.peer``), which runs the program once and then answers the proxy's calls
one at a time, in order, in that one process, as upstream's runner has it: each call's
arguments go out and its result comes back serialised (the wire codec, ``jobs/codec.py``;
``jobs/frames.py``), rebuilt as real objects in the trusted job only. The verdict is decided
from the trusted job's report and what the sandbox saw of the candidate's job (its status,
exit, limits); the evaluator never reads the session.

Status mapping: the test completes -> ``AC``; ``AssertionError`` -> ``WA``; another exception
of the test's own code (on the program's result) -> ``WA``; one re-raised from the
candidate's call -> ``RE`` classified by type (a function the test calls that the program does
not define: ``NameError``); the test unable to run here (its imports, a missing optional
library or account) or a task declared unjudgeable (:meth:`~FunctionTestJudge.unjudgeable`) ->
a judge error; a missing library or account reported from the candidate's call -> the program's
``RE`` (nothing the program raises makes a judge error; when a library raised it and the trusted
job finds it missing here, ``details["environment_lacks"]`` says so); a ``MemoryError`` in the
call's or the test's exception chain -> ``MLE`` (``judges.base.limit_status``); a returned value
that cannot cross safely -> ``RE``
(``details["proxy_unsupported"]``); a malformed payload -> ``RE``; the program dying in a call
or at top level -> ``RE``/``TLE``/``MLE``; no code -> ``FORMAT``. ``time_limit`` counts CPU
seconds of each job (the candidate's: its top level and all its calls, as upstream's one
process); the wall clock of each is capped at ``judges.base.wall_limit`` of that (the trusted
job's does not run while it waits for the candidate: docs/sandbox.md, "Linked jobs").
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ...verdict import TestResult, Verdict
from .. import _embed
from ..base import (
    Evidence,
    job_hash_seed,
    judge_error,
    judge_limitation,
    limit_status,
    make_verdict,
    read_result,
    wall_limit,
)
from .jobs import runner, trusted

DEFAULT_TIME_LIMIT = 60.0
PRELOAD = ("numpy", "qiskit", "qiskit_aer")
#: the trusted job's report read back: its file-size limit (``Limits``), never reached by a
#: report of the calls it needs
MAX_REPORT_BYTES = 64 << 20
#: the program broke the judge's calling contract (``verdict.with_error_class``)
BROKE_CONTRACT = Evidence(broke_contract=True)
#: stderr (and the check's stdout) kept per job: warnings or logging in each of many calls of a
#: correct function must not reach the cap; the candidate's stdout goes to /dev/null
OUTPUT_BYTES = 16 << 20
#: the evaluator's work per completion is linear in its size (extraction, a regex scan, copies
#: into the job's source); code over this many characters is not run: a judge limit
MAX_CODE_CHARS = 1_000_000

#: exceptions of the test's own code that say the environment lacks something it needs (a
#: module, an optional library, an account): the check cannot run here, a judge error
ENVIRONMENT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError",
                                "MissingOptionalLibraryError", "AccountNotFoundError",
                                "InvalidAccountError"})
#: packages whose own code may report the environment lacking something (an exception of the
#: program's call counts as the environment's only when raised in one of them)
LIBRARIES = frozenset({"qiskit", "qiskit_aer", "qiskit_ibm_runtime", "qiskit_ibm_transpiler"})


def _library_says_lacking(out: dict) -> bool:
    """Whether an environment exception re-raised from the program's call is the environment's:
    its class and the code that raised it are a library's (the program's report) and the
    trusted job found the library or account missing here (``lacks``: its own check)."""
    raised = out.get("raised")
    if not isinstance(raised, dict) or out.get("lacks") is not True:
        return False
    return all(str(raised.get(k, "")).split(".")[0] in LIBRARIES for k in ("module", "site"))


@dataclass
class _State:
    """What the session established for one sample."""

    const: list | None = None  # [value]: the program reported its entry point only returns it
    calls: int = 0
    wall: float = 0.0
    cpu: float = 0.0   # CPU seconds of both jobs


def _constant(report: object) -> list | None:
    """The program's report that its entry point only returns a constant: ``[value]``."""
    if not isinstance(report, str) or not report or len(report) > 200:
        return None
    try:
        out = json.loads(report)
    except ValueError:
        return None
    ok = isinstance(out, dict) and "const" in out and (
        out["const"] is None or type(out["const"]) in (bool, int, float, str))
    return [out["const"]] if ok else None


@functools.lru_cache(maxsize=1024)
def test_functions(source: str) -> tuple[str, ...]:
    """The top-level ``test_*`` functions ``source`` defines, in order (a trusted text).

    >>> test_functions("def test_b():\\n    pass\\ndef helper():\\n    pass\\ndef test_a():\\n    pass\\n")
    ('test_b', 'test_a')
    """
    import ast

    names = [n.name for n in ast.parse(source).body
             if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    return tuple(dict.fromkeys(names))


@dataclass
class FunctionTestJudge:
    """Base of the judges that call the candidate's function(s) and check the results in a
    trusted process (module docstring: stages, status mapping).

    A subclass sets ``benchmark`` and :attr:`style` (and the options :attr:`callbacks`,
    :attr:`rng_continues`) and defines :meth:`test_source`; it may override :meth:`program`,
    :meth:`functions`, :meth:`classes`, :meth:`tests`, :meth:`stub_returns`,
    :meth:`unjudgeable` and :meth:`task_details`. ``time_limit``: CPU seconds per job;
    ``preload``: what the sandbox worker imports once before forking a problem's jobs, or a
    function of the problem giving it; ``seed``: every job's hash seed and the source of its
    unseeded draws (numpy's, Aer's shots), recorded in the signature. The problem needs ``task_id`` and ``entry_point``; its
    ``config`` (if any) names the jobs.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class MyJudge(FunctionTestJudge):
    ...     benchmark: str = "mine"
    ...     style = "tests"
    ...     def test_source(self, problem):
    ...         return problem.test  # its test_* functions
    >>> MyJudge().max_stages
    1
    """

    time_limit: float = DEFAULT_TIME_LIMIT
    memory_mb: int = 4096
    benchmark: str = ""
    preload: tuple[str, ...] | Callable[[Any], tuple[str, ...]] = PRELOAD
    seed: int = 0

    #: ``"check"``: the test defines ``check(candidate)``; ``"tests"``: the test functions of
    #: :meth:`tests` are called in order, the candidate's functions bound as globals
    style: ClassVar[str] = "check"
    #: whether the functions the test defines and passes to the candidate (oracles) cross, as
    #: their source, to run in the candidate's process (``jobs/task_values``); never back
    callbacks: ClassVar[bool] = False
    #: a call made while the test drew no random number since its previous call starts where
    #: the program's previous call left its random state, as in one process (a test calling a
    #: random function twice gets two draws); else every call starts from the test's state
    rng_continues: ClassVar[bool] = False
    #: the trusted test's random states are seeded and every call of the candidate starts from
    #: the state the test had at that call (a run repeats the same verdict)
    deterministic = True
    #: one linked pair of jobs (``judges.base.stage_limit``)
    max_stages = 1

    # ------------------------------------------------------------------ the subclass's part
    def test_source(self, problem: Any) -> str:
        """The trusted program: run before the test is invoked (it defines ``check`` or the
        test functions); never holds the completion."""
        raise NotImplementedError

    def program(self, problem: Any, code: str) -> str:
        """What the candidate's job runs before its functions are called (by default the
        code)."""
        return code

    def functions(self, problem: Any) -> tuple[str, ...]:
        """The candidate's functions the test calls: the entry point first."""
        return (problem.entry_point,)

    def classes(self, problem: Any) -> tuple[str, ...]:
        """Classes the task defines whose instances cross between the test and the program, by
        name: each side rebuilds them with its own class of that name (``jobs/task_values``)."""
        return ()

    def tests(self, problem: Any) -> tuple[str, ...]:
        """Style ``"tests"``: the test functions called, in order."""
        return test_functions(self.test_source(problem))

    def stub_returns(self, problem: Any) -> list | None:
        """``[value]`` when the prompt's entry point is a stub that only returns ``value``
        (``pass``: ``None``): a program whose entry point only returns the same is ``WA`` even
        when the test accepts it; ``None``: no such rule."""
        return None

    def unjudgeable(self, problem: Any) -> str:
        """Why a non-AC verdict on ``problem`` is a judge error ('' when it is not): a task the
        judge cannot check, or one that cannot pass here."""
        return ""

    def task_details(self, problem: Any) -> dict[str, Any]:
        """What every verdict on ``problem`` reports in ``details`` besides the rounds."""
        return {}

    # ------------------------------------------------------------------ protocol
    def reads(self, problem: Any, code: str | None) -> str:
        """What the verdict depends on: the code."""
        return code or ""

    def signature(self) -> dict[str, Any]:
        """The options that can change a verdict (``judges.base.Judge.signature``)."""
        return {"time_limit": self.time_limit, "memory_mb": self.memory_mb, "seed": self.seed,
                "hash_seed": job_hash_seed(self.seed)}

    @property
    def _the_test(self) -> str:
        return "check()" if self.style == "check" else "the test"

    def _preload(self, problem: Any) -> tuple[str, ...]:
        return tuple(self.preload(problem) if callable(self.preload) else self.preload)

    # ------------------------------------------------------------------ jobs
    def _limits(self):
        from ...execution import Limits

        return Limits(wall_time=wall_limit(self.time_limit), cpu_time=self.time_limit,
                      memory_mb=self.memory_mb, output_bytes=OUTPUT_BYTES)

    def _job_id(self, problem: Any) -> str:
        config = getattr(problem, "config", None)
        return f"{config}:{problem.task_id}" if config is not None else str(problem.task_id)

    def _job(self, problem: Any, code: str):
        """The trusted job running the test, linked to the candidate's job (its peer)."""
        tests = None if self.style == "check" else list(self.tests(problem))
        job_id, preload = self._job_id(problem), self._preload(problem)
        common = {"limits": self._limits(), "preload": preload,
                  "hash_seed": job_hash_seed(self.seed)}
        candidate = _embed.job(runner, "main", self.program(problem, code), problem.entry_point,
                               list(self.classes(problem)), self.callbacks,
                               id=f"{job_id}:program", **common)
        return _embed.job(trusted, "main", self.test_source(problem), problem.entry_point,
                          tests, list(self.functions(problem)), list(self.classes(problem)),
                          self.callbacks, self.rng_continues, id=f"{job_id}:check",
                          collect=(trusted.OUT_FILE,), trusted=True, peer=candidate, **common)

    def jobs(self, problem: Any, code: str | None) -> list[Any] | Verdict:
        code = code or ""
        if not code.strip():
            return make_verdict(self, problem.task_id, "FORMAT", "the completion contains no code",
                                tests_total=1, details=self._details(problem, _State()))
        if len(code) > MAX_CODE_CHARS:
            return self._judge_limitation(problem, _State(), "code_size",
                                          f"the completion's code has {len(code)} characters, "
                                          f"over the judge's bound of {MAX_CODE_CHARS}; not run")
        if self.style == "tests" and not self.tests(problem):
            return self._judge_error(problem, _State(), "the task's test defines no test "
                                     "function to call")
        return [self._job(problem, code)]

    # ------------------------------------------------------------------ decide
    def decide(self, problem: Any, code: str | None, results: list[Any]) -> Verdict | list[Any]:
        r = results[0]
        program = r.peer
        st = _State(wall=r.wall_time or 0.0, cpu=(r.cpu_time or 0.0) + (
            program.cpu_time or 0.0 if program is not None else 0.0))
        if program is None:
            return self._judge_error(problem, st, "the sandbox ran no program job beside the "
                                     f"check ({r.status})")
        read = read_result(r, trusted.OUT_FILE, MAX_REPORT_BYTES)
        if read.failure and read.failure.reason == "missing":
            limit = limit_status(r.status)
            if limit is not None:
                return self._verdict(problem, st, limit, f"{self._the_test} over "
                                     f"{self._limit_text(limit)} on the results")
            if r.exception is None and r.status in ("crashed", "killed"):
                return self._verdict(problem, st, "RE",
                                     f"the check process died on the program's results "
                                     f"({r.status}, signal {r.signal})", evidence=BROKE_CONTRACT)
            why = (f"{r.exception.type}: {r.exception.message}" if r.exception
                   else f"{r.status} (exit code {r.exit_code})")
            return self._judge_error(problem, st, f"the trusted check failed: {why}"[:500],
                                     stderr_tail=(r.stderr or "")[-2000:])
        try:
            if read.failure:
                raise ValueError(str(read.failure))
            out = read.value
            if not isinstance(out, dict) or out.get("state") not in ("done", "top_level"):
                raise ValueError("unexpected report")
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            return self._judge_error(problem, st, f"the trusted check's report is unreadable "
                                     f"({exc})", stderr_tail=(r.stderr or "")[-2000:])
        if out["state"] == "top_level":
            return self._top_level(problem, st, program)
        st.const = _constant(out.get("const"))
        st.calls = out["calls"] if type(out.get("calls")) is int else 0
        return self._outcome(problem, st, out, program)

    # ------------------------------------------------------------------ verdicts
    def _outcome(self, problem: Any, st: _State, out: dict, program: Any) -> Verdict:
        result = out.get("result")
        if result == "pass":
            stub = self.stub_returns(problem) if st.const is not None else None
            if stub is not None and type(stub[0]) is type(st.const[0]) and stub == st.const:
                return self._verdict(problem, st, "WA", f"{problem.entry_point}() is the "
                                     f"prompt's stub (its body only returns {stub[0]!r}); the "
                                     "test accepts it, the judge does not", stub=True)
            return self._verdict(problem, st, "AC", "")
        if result == "fail":
            exc, origin = str(out.get("type")), out.get("origin")
            text = f"{exc}: {out.get('message', '')}"
            # the program's call or the test on its results ran out of memory (the test's top
            # level, which reads no result, stays the environment's: a judge error below)
            if origin in ("candidate", "check") and limit_status(
                    "error", memory_error=out.get("memory") is True) == "MLE":
                where = "the program's function" if origin == "candidate" else self._the_test
                return self._verdict(problem, st, "MLE", f"{where} ran out of memory: {text}",
                                     exception_origin=origin)
            if origin == "candidate":  # raised by the program's function, re-raised in check()
                # nothing the program raises makes a judge error: a library it called saying
                # this environment lacks an optional library or an account is its RE, with
                # what was lacking in ``details`` (a task that needs it is ``unjudgeable``)
                lacking = ({"environment_lacks": True, "raised_in": str(out["raised"]["site"])}
                           if exc in ENVIRONMENT_ERRORS and _library_says_lacking(out) else {})
                return self._verdict(problem, st, "WA" if exc == "AssertionError" else "RE",
                                     f"in the program's function: {text}",
                                     evidence=Evidence(exception_type=exc),
                                     exception_origin="candidate", **lacking)
            if origin != "check" or exc in ENVIRONMENT_ERRORS:
                where = f"in {self._the_test}" if origin == "check" else "at its top level"
                return self._judge_error(problem, st, f"the task's test cannot run here ({where})"
                                         f": {text}"[:1000], exception_type=exc,
                                         exception_origin=origin, environment_error=True)
            # check()'s own code failed on what the program returned (``None.equiv`` ...): the
            # program's wrong answer, whatever the type; it was not raised in the program
            return self._verdict(problem, st, "WA", f"{self._the_test} raised {text}",
                                 evidence=Evidence(exception_type=exc), exception_origin="check")
        reason, i, message = out.get("reason"), out.get("index"), out.get("message", "")
        call = f"call {i + 1}" if isinstance(i, int) else "the program"
        if reason == "limit":
            what = message if message.startswith("an argument") else f"returned a {message}"
            return self._judge_limitation(problem, st, "transport",
                                          f"{call}: {what}: a limit of the transport, not "
                                          "counted as the program's error",
                                          proxy_unsupported=message)
        if reason == "unsupported":
            return self._verdict(problem, st, "RE",
                                 f"{call} returned a {message}, which cannot be passed safely to "
                                 "the check (unsupported type)", proxy_unsupported=message,
                                 evidence=BROKE_CONTRACT)
        if reason == "payload":
            return self._verdict(problem, st, "RE", f"{call}: malformed result: {message}",
                                 evidence=BROKE_CONTRACT)
        if reason == "exit":
            return self._verdict(problem, st, "RE", f"{call}: {message}", evidence=BROKE_CONTRACT)
        # the program ended during a call: what the sandbox saw of its job
        limit = limit_status(program.status)
        if limit is not None:
            return self._verdict(problem, st, limit, f"{call}: over {self._limit_text(limit)}",
                                 program)
        if program.exception is not None:
            exc = program.exception.type.rsplit(".", 1)[-1]
            return self._verdict(problem, st, "WA" if exc == "AssertionError" else "RE",
                                 f"{call}: {exc}: {program.exception.message[:500]}", program,
                                 evidence=Evidence(exception_type=exc))
        return self._verdict(problem, st, "RE",
                             f"the program ended during {call} (status {program.status}, "
                             f"exit code {program.exit_code}, signal {program.signal})", program,
                             evidence=BROKE_CONTRACT)

    def _top_level(self, problem: Any, st: _State, r: Any) -> Verdict:
        """The candidate's program failed before its function could be called."""
        limit = limit_status(r.status)
        if limit is not None:
            return self._verdict(problem, st, limit, f"over {self._limit_text(limit)}", r)
        if r.exception is not None:
            exc = r.exception.type.rsplit(".", 1)[-1]
            return self._verdict(problem, st, "WA" if exc == "AssertionError" else "RE",
                                 f"{exc}: {r.exception.message}".strip(), r,
                                 evidence=Evidence(exception_type=exc))
        return self._verdict(problem, st, "RE",
                             f"the program exited before {self._the_test} ran ({r.status}, exit code "
                             f"{r.exit_code}, signal {r.signal})", r, evidence=BROKE_CONTRACT)

    def _limit_text(self, limit: str) -> str:
        """The limit a job passed, in words (``limit``: ``TLE`` or ``MLE``)."""
        if limit == "MLE":
            return f"{self.memory_mb} MB"
        return f"{self.time_limit:g} CPU s or {wall_limit(self.time_limit):g} s wall"

    def _details(self, problem: Any, st: _State, **extra: Any) -> dict[str, Any]:
        return {**self.task_details(problem), "calls": st.calls, **extra}

    def _verdict(self, problem: Any, st: _State, status: str, message: str, r: Any = None,
                 evidence: Evidence | None = None, **extra: Any) -> Verdict:
        """The verdict, unless the task cannot be judged here (a judge error); ``extra`` goes to
        ``details``, ``evidence`` is what ``verdict.with_error_class`` classifies."""
        seen = evidence.details() if evidence else {}
        why = self.unjudgeable(problem) if status != "AC" else ""
        if why:
            return self._judge_error(problem, st, f"{why}; the check said: {message}"[:1000],
                                     **seen, **extra)
        details = self._details(problem, st, **extra)
        if r is not None:
            details["stderr_tail"] = (r.stderr or "")[-2000:]
        check = TestResult(name="check" if self.style == "check" else "test", passed=status == "AC", status=status, message=message,
                           seconds=st.wall)
        return make_verdict(self, problem.task_id, status, message, tests=[check],
                            evidence=evidence, details=details,
                            timings={"wall_time": st.wall, "cpu_time": st.cpu})

    def _judge_limitation(self, problem: Any, st: _State, reason: str, message: str,
                          **extra: Any) -> Verdict:
        """A judge error of a sample past one of the judge's own bounds (``reason``)."""
        return judge_limitation(self, problem.task_id, reason, message,
                                timings={"wall_time": st.wall, "cpu_time": st.cpu},
                                **self._details(problem, st, **extra))

    def _judge_error(self, problem: Any, st: _State, message: str, **extra: Any) -> Verdict:
        details = self._details(problem, st, **extra)
        return judge_error(self, problem.task_id, message, details=details,
                           timings={"wall_time": st.wall, "cpu_time": st.cpu})
