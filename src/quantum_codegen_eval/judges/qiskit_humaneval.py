"""The Qiskit HumanEval judge: ``check(candidate)``, as in the upstream harness.

A completion becomes one program, run in the sandbox:

* normal tasks: ``prompt + completion + test + check(entry_point)``; when the completion already
  defines ``entry_point`` at the top level it is appended after the prompt (the prompt's imports
  stay, its docstring-only stub is replaced by the completion's definition);
* hard tasks (the prompt is prose; the test has its own imports and ``check(...)`` call):
  ``completion + test``.

Code is taken from the first fenced Python blocks of the completion, else the whole text. The
program ends by writing a per-run random token to a file only reachable after ``check`` returned,
so a completion that exits early (``os._exit(0)``) cannot pass.

Status mapping: clean exit with the token -> ``AC``; ``AssertionError`` -> ``WA``; any other
uncaught exception, or a non-zero exit -> ``RE``; over the time limit -> ``TLE``; over the memory
limit -> ``MLE``; no code at all -> ``FORMAT``. ``time_limit`` counts CPU seconds; the wall clock
is capped at ``WALL_FACTOR`` times that.

>>> from quantum_codegen_eval.benchmarks.qiskit_humaneval import Task
>>> t = Task("qiskitHumanEval/x", "def f(x):\\n    \\"\\"\\"Add one.\\"\\"\\"\\n", "    return x + 1\\n",
...          "def check(candidate):\\n    assert candidate(1) == 2\\n", "f", "basic", "normal")
>>> print(build_program(t, "    return x + 1\\n").splitlines()[-1])
check(f)
"""

from __future__ import annotations

import ast
import re
import secrets
from dataclasses import dataclass
from typing import Any

from ..codeblocks import extract_code
from ..verdict import TestResult, Verdict

BENCHMARK = "qiskit_humaneval"
DONE_FILE = "__qce_check_done__"
DEFAULT_TIME_LIMIT = 60.0
#: the wall clock allows this many times the CPU limit: a loaded machine must not turn a slow
#: run into TLE, while a program that sleeps or waits still ends
WALL_FACTOR = 3.0

#: uncaught exception type -> error class (see docs/benchmarks/qiskit_humaneval.md)
_HALLUCINATION = {"ImportError", "ModuleNotFoundError", "AttributeError", "NameError"}
_FORMATTING = {"SyntaxError", "IndentationError", "TabError"}


def _defines(code: str, name: str) -> bool:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return bool(re.search(rf"^(?:async\s+)?def\s+{re.escape(name)}\s*\(", code, re.MULTILINE))
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
               and n.name == name for n in tree.body)


def _calls_check(test: str) -> bool:
    return bool(re.search(r"^check\s*\(", test, re.MULTILINE))


def completion_code(completion: str) -> str:
    """The code in a completion: fenced Python blocks if any, else the whole text."""
    code = extract_code(completion, plain_ok=True)
    return code if code is not None else ""


def build_program(task: Any, completion: str) -> str:
    """The program that checks ``completion`` (without the trusted end token)."""
    code = completion_code(completion)
    if task.config == "hard" or _calls_check(task.test):
        head = code
    elif _defines(code, task.entry_point):
        head = task.prompt.rstrip() + "\n\n\n" + code
    else:  # the upstream bodies start with a newline; a model's may not
        head = task.prompt.rstrip(" \t") + "\n" + code.lstrip("\n")
    program = head.rstrip("\n") + "\n\n\n" + task.test.rstrip("\n") + "\n"
    if not _calls_check(task.test):
        program += f"\n\ncheck({task.entry_point})\n"
    return program


def _error_class(exc_type: str) -> str:
    if exc_type == "AssertionError":
        return "reasoning"
    if exc_type in _HALLUCINATION:
        return "hallucination"
    if exc_type in _FORMATTING:
        return "formatting"
    return "api_misuse"


@dataclass
class QiskitHumanEvalJudge:
    """Judge for Qiskit HumanEval (normal and hard). ``time_limit``: CPU seconds per program."""

    time_limit: float = DEFAULT_TIME_LIMIT
    memory_mb: int = 4096
    benchmark: str = BENCHMARK

    def jobs(self, problem: Any, completion: str) -> list[Any] | Verdict:
        from ..execution import Job, Limits

        if not isinstance(completion, str) or not completion_code(completion).strip():
            return Verdict(BENCHMARK, problem.task_id, "FORMAT", 0, 1, error_class="formatting",
                           message="the completion contains no code")
        token = secrets.token_hex(16)
        program = (build_program(problem, completion)
                   + f"\nwith open({DONE_FILE!r}, 'w') as _qce_f:\n    _qce_f.write({token!r})\n")
        limits = Limits(wall_time=self.time_limit * WALL_FACTOR, cpu_time=self.time_limit,
                        memory_mb=self.memory_mb)
        return [Job(program, id=f"{problem.config}:{problem.task_id}:{token}",
                    collect=(DONE_FILE,), limits=limits)]

    def decide(self, problem: Any, completion: str, results: list[Any]) -> Verdict:
        (r,) = results
        token = r.id.rsplit(":", 1)[-1]
        done = r.files.get(DONE_FILE, b"") == token.encode()
        timings = {"wall_time": r.wall_time or 0.0}
        status, error_class, message = "AC", None, ""
        if r.status == "timeout":
            status, error_class, message = "TLE", "timeout", (
                f"over {self.time_limit:g} CPU s or {self.time_limit * WALL_FACTOR:g} s wall")
        elif r.status == "memory":
            status, error_class, message = "MLE", "timeout", f"over {self.memory_mb} MB"
        elif r.exception is not None:
            exc = r.exception.type.rsplit(".", 1)[-1]
            status = "WA" if exc == "AssertionError" else "RE"
            error_class = _error_class(exc)
            message = f"{exc}: {r.exception.message}".strip()
        elif r.status != "ok":
            status, error_class = "RE", "api_misuse"
            message = f"{r.status} (exit code {r.exit_code}, signal {r.signal})"
        elif not done:
            status, error_class = "RE", "api_misuse"
            message = "the program exited before check() completed"
        passed = status == "AC"
        detail = TestResult(name="check", passed=passed, status=status, message=message,
                            seconds=r.wall_time)
        return Verdict(BENCHMARK, problem.task_id, status, int(passed), 1, [detail],
                       error_class=error_class, message=message, timings=timings,
                       details={"config": problem.config, "stderr_tail": (r.stderr or "")[-2000:]})
