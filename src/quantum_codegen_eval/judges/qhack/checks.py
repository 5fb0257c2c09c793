"""Where each challenge's verdict is decided, and what an output must look like to be an answer.

``check_trust`` (a record field, and ``details["check_trust"]`` of every QHack verdict):

``data``  the verdict depends on data only: 2022's printed answer compared in the judge, or the
          official ``check(output, expected)`` run in a trusted job (era interpreter, its source
          the harness's imports and ``check()`` only) on the output the program returned.
``circuit``  the official ``check()`` needs live objects, and the judge has its own trusted check
          over the circuits the program emits (:mod:`.circuits`) or records (:mod:`.record`):
          rebuilt and simulated in the trusted job, with the harness's real oracles.
``live``  the fallback for a challenge whose official ``check()`` calls the solution's functions
          or inspects its circuits and that has no trusted check here (none of the 74 today; a
          changed upstream could add one): the check runs inside the program's process, with the
          program's own output in place of the expected one, the record's ``compare`` rule is
          repeated in the trusted job, and the verdicts are flagged as forgeable.

:func:`validate` is applied before any comparison: an output whose type or shape does not match
the expected one is a wrong answer (upstream's ``np.allclose([], x)`` is vacuously true).
"""

from __future__ import annotations

import ast
import builtins
import json
import math
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ...formats.qhack_template import parse as _parse
from .program import bound_names, chunks_of, get

DATA, CIRCUIT, LIVE = "data", "circuit", "live"

def check_source(problem: Any) -> str:
    return "".join(c.text for c in chunks_of(problem) if c.kind == "check")


def free_names(source: str) -> set[str]:
    """Names a function reads that it does not bind itself (nor builtins)."""
    try:
        tree = _parse(source)
    except SyntaxError:
        return {"<unparsable>"}
    loaded: set[str] = set()
    bound: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            loaded.add(n.id)
        elif isinstance(n, ast.arg):
            bound.add(n.arg)
        elif isinstance(n, ast.stmt):
            bound |= bound_names(n) if not isinstance(n, ast.ClassDef) else {n.name}
        elif isinstance(n, ast.comprehension):
            bound |= {x.id for x in ast.walk(n.target) if isinstance(x, ast.Name)}
    return loaded - bound - set(dir(builtins))


def imported_names(problem: Any) -> set[str]:
    out: set[str] = set()
    for c in chunks_of(problem):
        if c.kind == "import":
            try:
                out |= {n for s in _parse(c.text).body for n in bound_names(s)}
            except SyntaxError:
                continue
    return out


def check_trust(problem: Any) -> str:
    """``data``, ``circuit`` or ``live`` (see the module docstring)."""
    from .circuits import CIRCUIT_CHECKS
    from .record import RECORD_CHECKS

    if get(problem, "id") in CIRCUIT_CHECKS or get(problem, "id") in RECORD_CHECKS:
        return CIRCUIT
    if get(problem, "format") == "script":
        return DATA
    src = check_source(problem)
    if not src:
        return DATA
    return DATA if free_names(src) <= imported_names(problem) else LIVE


# ---------------------------------------------------------------- output validation

def _numeric_shape(value: Any) -> tuple[int, ...] | None:
    """The shape of a rectangular nest of real/complex numbers (``None`` if it is not one)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float, complex)):
        return ()
    if isinstance(value, list):
        shapes = {_numeric_shape(v) for v in value}
        if len(shapes) > 1 or None in shapes:
            return None
        return (len(value), *(shapes.pop() if shapes else ()))
    return None


def _json(text: Any) -> tuple[bool, Any]:
    if not isinstance(text, str):
        return False, None
    try:
        return True, json.loads(text)
    except (ValueError, RecursionError):
        return False, None


def _flat(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [x for v in value for x in _flat(v)]
    return [value]


def _finite(value: Any) -> bool:
    return all(math.isfinite(abs(x)) for x in _flat(value))


def _same_shape(output: Any, expected: str) -> str | None:
    ok, got = _json(output)
    if not ok:
        return "the output is not a JSON value" if isinstance(output, str) else \
            f"run() returned {type(output).__name__}, not the string the check reads"
    _, want = _json(expected)
    gs, ws = _numeric_shape(got), _numeric_shape(want)
    if gs is None:
        return "the output is not a number or a rectangular array of numbers"
    if gs != ws:
        return f"output shape {gs} does not match the expected shape {ws}"
    return None


def _lazy_workers(output: Any, expected: str, test_input: str) -> str | None:
    ok, got = _json(output)
    _, workers = _json(test_input)
    if not ok or _numeric_shape(got) != (256 + len(workers),):
        return f"the output must be 256 probabilities followed by the {len(workers)} workers"
    probs, tail = got[:256], got[256:]
    if tail != workers:
        return "the workers appended to the output are not the test's workers"
    if not _finite(probs) or min(probs) < -1e-9 or abs(sum(probs) - 1) > 1e-6:
        return "the first 256 values are not a probability distribution"
    return None


def _mojito(output: Any, expected: str, test_input: str) -> str | None:
    ok, got = _json(output)
    _, want = _json(expected)
    shape = _numeric_shape(got) if ok else None
    if shape != (len(want) + 1,):
        return f"the output must be {len(want)} numbers followed by the operation count"
    return None


def _bool_text(output: Any, expected: str, test_input: str) -> str | None:
    if type(output) is not str or output not in ("True", "False"):
        return f"the output must be 'True' or 'False', got {str(output)[:40]!r}"
    return None


def _float_text(output: Any, expected: str, test_input: str) -> str | None:
    try:
        ok = isinstance(output, str) and math.isfinite(float(output))
    except ValueError:
        ok = False
    return None if ok else "the output must be the text of a finite number"


def _text(output: Any, expected: str, test_input: str) -> str | None:
    return None if isinstance(output, str) else \
        f"run() returned {type(output).__name__}, not a string"


#: challenges whose check is not a plain allclose of the whole output: their own shape rule
VALIDATORS = {
    "2024/lazy_workers_terminal": _lazy_workers,
    "2024/mojito_hhlime_twist": _mojito,
    "2023/bending_bennets_laws_300": _bool_text,
    "2024/rainy_days_retreat": _float_text,
    "2023/tutorial_4": _text,
    "2024/hockey_night_cave": lambda o, e, i: _same_shape(o, e),
    "2023/fall_of_sqynet_400": lambda o, e, i: _same_shape(o, e),
}


def validated(problem: Any) -> bool:
    """Whether outputs of this challenge are validated before comparison."""
    return bool(get(problem, "compare", "")) or get(problem, "id") in VALIDATORS


def validate(problem: Any, output: Any, expected: str, test_input: str) -> str | None:
    """Why ``output`` cannot be an answer (a wrong answer), or ``None``."""
    try:
        return _validate(problem, output, expected, test_input)
    except RecursionError:
        return "the output is too deeply nested"
    except Exception as exc:  # noqa: BLE001 - data no rule foresaw is not an answer (total)
        return f"the output cannot be read as an answer ({type(exc).__name__})"


def _validate(problem: Any, output: Any, expected: str, test_input: str) -> str | None:
    rule = VALIDATORS.get(get(problem, "id"))
    if rule is not None:
        return rule(output, expected, test_input)
    if get(problem, "compare", ""):
        why = _same_shape(output, expected)
        if why is None and not _finite(json.loads(output)):
            return "the output is not finite"
        return why
    return None


# ---------------------------------------------------------------- 2022 (compared in the judge)

def _num(tok: str) -> float | None:
    try:
        return float(tok)
    except ValueError:
        return None


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[,\s]+", text.strip()) if t]


def _within(got: str, expected: str, rel: float) -> bool:
    """As the statements state it: the error relative to the expected value, boundary included,
    in the decimals as printed (``1.05`` is within 5 % of ``1``; in binary floating point it is
    not). ``math.isclose`` measured it against the larger of the two values: 5.2 % too high
    passed a 5 % tolerance."""
    try:
        g, e, r = Decimal(got), Decimal(expected), Decimal(repr(rel))
        if not (g.is_finite() and e.is_finite()):
            return False
        return abs(g - e) <= r * (abs(e) if e else 1)
    except ArithmeticError:  # not a decimal; past the context's exponent range
        return False


def compare_script(got_stdout: str, expected: str, rule: dict[str, Any]) -> tuple[bool, str]:
    """2022: everything the program printed against ``N.ans`` (every 2022 statement: "Do not
    add any print statements to your solution, as this will cause your submission to fail").

    Tokens (split on commas/whitespace) must match one for one, so a line printed besides the
    answer changes their count; with a relative tolerance, numeric tokens may differ by ``rel``
    relative to the expected value (``rel`` absolute when the expected value is 0); text tokens
    and, without a tolerance, all tokens match exactly (numbers by value). ``accuracy`` rules
    need at least that fraction of tokens to match (the statement's "Tolerance: >= 90%").

    >>> compare_script("0.50001\\n", "0.5", {"func": "tokens", "rel": 1e-4})
    (True, '')
    >>> compare_script("step 1\\n0.5\\n", "0.5", {"func": "tokens", "rel": 1e-4})
    (False, 'expected 1 value(s), got 3')
    """
    got, exp = _tokens(got_stdout), _tokens(expected)
    rel = rule.get("rel")

    def same(g: str, e: str) -> bool:
        gn, en = _num(g), _num(e)
        if gn is None or en is None:
            return g == e
        if rel is None:
            return gn == en
        return _within(g, e, rel)

    if rule.get("func") == "accuracy":
        if len(got) != len(exp) or not exp:
            return False, f"expected {len(exp)} values, got {len(got)}"
        right = sum(same(g, e) for g, e in zip(got, exp, strict=True))
        ok = Fraction(right, len(exp)) >= Fraction(str(rule["min"]))  # exact: 225/250 is 0.9
        return ok, "" if ok else f"accuracy {right / len(exp):.3f} below {rule['min']:.2f}"
    if len(got) != len(exp):
        return False, f"expected {len(exp)} value(s), got {len(got)}"
    for i, (g, e) in enumerate(zip(got, exp, strict=True)):
        if not same(g, e):
            return False, f"value {i}: got {g}, expected {e}"
    return True, ""
