"""The programs of a task: what the candidate's job runs and what the trusted check runs.

* the candidate's program: normal tasks ``prompt + code`` (when the completion's code already
  defines ``entry_point`` at the top level it comes after the prompt, whose docstring-only stub
  it replaces); hard tasks (the prompt is prose) just the code;
* the check's program: the prompt (normal tasks: its imports, which upstream tests rely on) and
  the test, without the test's own top-level ``check(...)`` call.

``build_program`` is the upstream single-process layout (candidate program + test +
``check(entry_point)``), kept for metrics (``candidate_code``) and for reading.

>>> from quantum_codegen_eval.benchmarks.qiskit_humaneval import Task
>>> t = Task("qiskitHumanEval/x", "def f(x):\\n    \\"\\"\\"Add one.\\"\\"\\"\\n", "    return x + 1\\n",
...          "def check(candidate):\\n    assert candidate(1) == 2\\n", "f", "basic", "normal")
>>> print(build_program(t, "    return x + 1\\n").splitlines()[-1])
check(f)
>>> print(check_source(t).splitlines()[-1])
    assert candidate(1) == 2
"""

from __future__ import annotations

import ast
import re
from typing import Any

#: what the scan of ``_defines`` stops at: a comment, a string's opening quote, a definition
_LEX = re.compile(r"(#[^\n]*)|('''|\"\"\"|'|\")|^(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)",
                  re.MULTILINE)
_STRING_STOP = {  # what can end a string's body: an escape, its quote, a newline (one-line)
    "'''": re.compile(r"\\|'''"), '"""': re.compile(r'\\|"""'),
    "'": re.compile(r"\\|'|\n"), '"': re.compile(r'\\|"|\n'),
}


def _defines(code: str, name: str) -> bool:
    """Whether ``code`` defines ``name`` (a function or class) at the top level (column 0,
    outside strings and comments).

    A linear scan (regular expressions, no parser): ``ast.parse`` of a crafted completion can
    take gigabytes or raise ``RecursionError``/``MemoryError`` in the evaluator, and
    ``tokenize`` takes seconds per megabyte. An unterminated string ends the scan."""
    pos = 0
    while True:
        m = _LEX.search(code, pos)
        if m is None:
            return False
        if m.group(3) is not None and m.group(3) == name:
            return True
        pos = m.end()
        quote = m.group(2)
        while quote:  # to the string's end (no backtracking regex: its stack grows per char)
            stop = _STRING_STOP[quote].search(code, pos)
            if stop is None or stop.group() == "\n":
                return False
            pos = stop.end() + (stop.group() == "\\")
            quote = quote if stop.group() == "\\" else None


def _calls_check(test: str) -> bool:
    return bool(re.search(r"^check\s*\(", test, re.MULTILINE))


def candidate_program(task: Any, code: str) -> str:
    """What the candidate's job runs before its function is called (no test in it), with the
    completion's ``code``."""
    if task.config == "hard" or _calls_check(task.test):
        return code
    if _defines(code, task.entry_point):
        return task.prompt.rstrip() + "\n\n\n" + code
    # the upstream bodies start with a newline; a model's may not
    return task.prompt.rstrip(" \t") + "\n" + code.lstrip("\n")


def build_program(task: Any, code: str) -> str:
    """The upstream single-process program (candidate program + test + ``check(...)``)."""
    program = (candidate_program(task, code).rstrip("\n") + "\n\n\n"
               + task.test.rstrip("\n") + "\n")
    if not _calls_check(task.test):
        program += f"\n\ncheck({task.entry_point})\n"
    return program


def _strip_check_calls(test: str) -> str:
    """The test without its top-level ``check(...)`` statements (the judge calls check)."""
    try:
        tree = ast.parse(test)
    except SyntaxError:
        return re.sub(r"^check\s*\(.*\)\s*$", "", test, flags=re.MULTILINE)
    lines = test.splitlines(keepends=True)
    for node in tree.body:
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "check"):
            for i in range(node.lineno - 1, node.end_lineno or node.lineno):
                lines[i] = "\n"
    return "".join(lines)


def check_source(task: Any) -> str:
    """What the trusted check job executes before calling ``check(proxy)``."""
    test = _strip_check_calls(task.test).rstrip("\n") + "\n"
    if task.config == "hard" or _calls_check(task.test):
        return test
    return task.prompt.rstrip() + "\n\n\n" + test
