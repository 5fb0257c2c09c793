"""Every way a QHack completion can fail to parse is a verdict (FORMAT or RE, as the contest's
interpreter would say), never a judge error; a program an era's interpreter compiles (a
4,000-term sum) is parsed by the judge too, however its own interpreter's default recursion
limit would refuse it; past the documented size cap (``max_code_bytes``) a FORMAT verdict."""

from __future__ import annotations

import sys
import time

import pytest
from peak_rss import run_fresh, start_window

from quantum_codegen_eval.formats.python_source import call_deep
from quantum_codegen_eval.judges.base import judge_many
from quantum_codegen_eval.judges.qhack.judge import QHackJudge

FLAT_SUM = "def add_numbers(x, y):\n    return x + y" + " + 0" * 4000 + "\n"
NESTED = "def add_numbers(x, y):\n    return x + y + " + "[" * 300 + "]" * 300 + "\n"
UNARY = "def add_numbers(x, y):\n    return x + y + " + "-" * 20000 + "0\n"
LONG_CHAIN = "def add_numbers(x, y):\n    return x + y\n\nz = a" + ".b" * 20000 + "\n"


def test_parse_failures_are_verdicts(qhack_problems, sandbox):
    rec = qhack_problems["2023/tutorial_1"]
    judge = QHackJudge(env="current", max_code_bytes=50_000)
    big = "def add_numbers(x, y):\n    return x + y\n" + "# pad\n" * 10_000
    flat, nested, unary, chain, too_big = judge_many(
        judge, [(rec, c) for c in (FLAT_SUM, NESTED, UNARY, LONG_CHAIN, big)], sandbox)
    verdicts = [flat, nested, unary, chain, too_big]
    assert not any(v.judge_error for v in verdicts), [(v.status, v.message) for v in verdicts]
    # parsed and run: on this interpreter (env="current") the program job compiles it as well
    assert flat.status in ("AC", "RE") and "judge" not in flat.message
    assert flat.details.get("format") is None, flat.message
    assert nested.status == "FORMAT" and nested.details["format"] == "syntax_error"
    assert unary.status == "RE" and "cannot be compiled" in unary.message, unary.message
    assert chain.status == "RE", chain.message  # parsed, then `a` is not defined when loaded
    assert too_big.status == "FORMAT" and too_big.details["format"] == "too_large"
    assert judge.options()["max_code_bytes"] == 50_000


def test_an_eras_program_is_parsed_here():
    """The judge's own parse of a 4,000-term sum (3.9 compiles it; 3.11 refuses it at the default
    recursion limit, 3.10 with the caller's stack depth (not in a pytest-xdist worker); 3.13 refuses it or not with the depth of the caller's C stack,
    here alone it does, in a pytest-xdist worker it did not) and of a 40,000-link attribute
    chain. From 3.12 the AST's depth is bounded by the interpreter's C recursion limit (about
    10,000 on 3.13), which no stack size or recursion limit raises: the chain is refused there
    with a RecursionError, which the judge makes a verdict of (test_parse_failures_are_verdicts)."""
    import ast

    if sys.version_info[:2] == (3, 11):  # a stable refusal only there
        with pytest.raises(RecursionError):
            ast.parse(FLAT_SUM)
    tree = call_deep(ast.parse, FLAT_SUM)
    assert call_deep(ast.unparse, tree).count("+ 0") == 4000
    peak = run_fresh(parse_chain, 40_000)
    assert peak.result["error"] == ("RecursionError" if sys.version_info >= (3, 12) else None)
    assert peak.result["cpu"] < 5, peak
    assert peak.growth_mb < 500, peak  # of a fresh process's peak RSS (tests/support/peak_rss.py)


def parse_chain(links: int) -> dict:
    """The judge's parse of an attribute chain of ``links`` links: its CPU seconds and the
    error it raised, if any."""
    import ast

    chain = "z = a" + ".b" * links + "\n"
    start_window()
    t0, error = time.process_time(), None
    try:
        call_deep(ast.parse, chain)
    except RecursionError as exc:
        error = type(exc).__name__
    return {"cpu": time.process_time() - t0, "error": error}
