"""The QHack judge: a completion's solution parts inside the official harness, one sandbox job per
public test, the decision in the trusted parent.

Protocol (docs/benchmarks/qhack.md states it for citation):

1. Extract the code (fenced block, else the plain text). None: ``FORMAT`` (no code); does not
   parse: ``FORMAT`` (syntax error); a required function missing: ``FORMAT``; a required function
   that cannot take the template's positional arguments: ``FORMAT`` (template broken).
2. Keep only the solution parts of the completion: imports, function/class definitions and
   assignments, minus anything named ``run``, ``check``, ``test_cases`` or like a given
   (uneditable) definition of the template, minus top-level calls, loops and ``__main__`` blocks.
3. Build the program from the record's template chunks in order, the solution in place of the
   editable chunks; then the given definitions and the official ``run``/``check`` once more, so
   that nothing the solution defines can replace them.
4. Run each public test as its own sandbox job (era interpreter, the challenge's time limit). The
   program writes its raw outputs and the in-sandbox ``check()`` outcome to ``qce_result.json``.
5. The parent decides: 2022 compares the driver's printed output with ``N.ans`` (tokens; floats
   within the PDF's relative tolerance); 2023/2024 require the official ``check()`` to pass in the
   sandbox *and*, where ``check()`` is a plain ``allclose``/``isclose`` of the JSON outputs,
   repeats that comparison itself on the raw ``run()`` output.
"""

from __future__ import annotations

import ast
import json
import math
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from ..verdict import TestResult, Verdict
from .qhack_template import Chunk, stub
from .qhack_template import parse as _parse

RESULT_FILE = "qce_result.json"
JOB_FILE = "qce_job.json"
SOLUTION_FILE = "<solution>"
#: Seconds added to each test's time limit for interpreter start-up and imports.
STARTUP_ALLOWANCE = 40.0

_RUNNER = r'''
def _qce_main():
    import contextlib, io, json, os, sys, traceback
    dumps, fdopen = json.dumps, os.fdopen
    with open("qce_job.json") as fh:
        spec = json.load(fh)
    os.remove("qce_job.json")  # the nonce stays in this frame only
    nonce = spec.pop("nonce")
    out_fd = os.open("qce_result.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    result = {}

    def err(phase, exc):
        frames = [[f.filename, f.lineno, f.name] for f in traceback.extract_tb(exc.__traceback__)]
        return {"phase": phase, "type": type(exc).__name__, "module": type(exc).__module__,
                "message": str(exc)[:4000], "frames": frames[-40:],
                "traceback": "".join(traceback.format_exception(
                    type(exc), exc, exc.__traceback__))[-8000:]}

    def save():
        result["nonce"] = nonce
        with fdopen(out_fd, "w") as fh:
            fh.seek(0)
            fh.truncate()
            fh.write(dumps(result, default=repr))

    g = {"__name__": "__main__", "__builtins__": __builtins__}
    try:
        for label, src in spec["parts"]:
            exec(compile(src, label, "exec"), g)
    except BaseException as exc:
        result["error"] = err("load", exc)
        return save()

    if spec["format"] == "script":
        sys.stdin = io.StringIO(spec["input"])
        buf = io.StringIO()
        try:
            with contextlib.redirect_stdout(buf):
                exec(compile(spec["driver"], "<qhack-driver>", "exec"), g)
        except SystemExit as exc:
            if exc.code not in (None, 0):
                result["error"] = err("driver", exc)
        except BaseException as exc:
            result["error"] = err("driver", exc)
        result["stdout"] = buf.getvalue()[-200000:]
        return save()

    run, check = g["run"], g["check"]
    try:
        out = run(spec["input"])
    except BaseException as exc:
        result["error"] = err("run", exc)
        return save()
    if isinstance(out, str):
        result["output"] = out[:1000000]
    else:
        result["output_repr"] = repr(out)[:100000]
        result["output_type"] = type(out).__name__
    if spec.get("expected") is None:
        result["check"] = {"passed": True, "message": "no expected output: run only"}
    else:
        try:
            msg = check(out, spec["expected"])
            result["check"] = {"passed": not msg, "message": "" if not msg else str(msg)[:4000]}
        except AssertionError as exc:
            result["check"] = {"passed": False, "message": str(exc)[:4000]}
        except BaseException as exc:
            result["error"] = err("check", exc)
    return save()


_qce_main()
'''


@dataclass
class Prepared:
    """A completion made ready to run: the solution source and what was dropped from it."""

    source: str
    defined: list[str]
    dropped: list[str] = field(default_factory=list)


class FormatProblem(Exception):
    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


def _get(problem: Any, key: str) -> Any:
    return problem[key] if isinstance(problem, dict) else getattr(problem, key)


def _chunks(problem: Any) -> list[Chunk]:
    out = []
    for c in _get(problem, "chunks"):
        if isinstance(c, Chunk):
            out.append(c)
        else:
            out.append(Chunk(c["kind"], c["code"], c["name"] or None))
    return out


def _given_names(chunks: list[Chunk]) -> set[str]:
    return {c.name for c in chunks if c.kind == "given" and c.name}


def _template_arity(chunks: list[Chunk]) -> dict[str, int]:
    out = {}
    for c in chunks:
        if c.kind == "editable" and c.name:
            try:
                node = _parse(stub(c)).body[0]
            except (SyntaxError, IndexError):
                continue
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out[c.name] = len(node.args.posonlyargs) + len(node.args.args)
    return out


def _accepts(node: ast.AST, n: int) -> bool:
    args = node.args  # type: ignore[attr-defined]
    pos = len(args.posonlyargs) + len(args.args)
    required = pos - len(args.defaults)
    return required <= n and (n <= pos or args.vararg is not None)


def _is_main_guard(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "__name__" in ast.unparse(node.test)


def prepare(problem: Any, code: str) -> Prepared:
    """The solution parts of ``code`` (raises :class:`FormatProblem`)."""
    try:
        tree = _parse(code)
    except SyntaxError as exc:
        raise FormatProblem("syntax_error", f"syntax error in the completion, line {exc.lineno}: "
                                            f"{exc.msg}") from exc
    chunks = _chunks(problem)
    protected = {"run", "check", "test_cases"} | _given_names(chunks)
    lines = code.splitlines()
    kept: list[str] = []
    defined: dict[str, ast.AST] = {}
    dropped: list[str] = []
    for node in tree.body:
        name = None
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.name
            if name in protected:
                dropped.append(name)
                continue
            defined[name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            if names & {"test_cases", "run", "check"}:
                dropped.append(",".join(sorted(names)))
                continue
            for n in names:
                defined.setdefault(n, node)
        elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Try, ast.With)):
            pass
        elif isinstance(node, ast.If) and not _is_main_guard(node):
            pass
        else:
            dropped.append(type(node).__name__.lower())
            continue
        start = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
        kept.append("\n".join(lines[start - 1:node.end_lineno]))
    required = list(_get(problem, "solution_functions"))
    missing = [n for n in required if n not in defined]
    if missing:
        raise FormatProblem("missing_functions",
                            "the completion does not define " + ", ".join(missing))
    for name, n in _template_arity(chunks).items():
        node = defined[name]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _accepts(node, n):
            raise FormatProblem("template_broken", f"{name}() no longer takes the template's "
                                                   f"{n} positional argument(s)")
    return Prepared("\n\n".join(kept) + "\n", sorted(defined), dropped)


def unfilled_solution(problem: Any) -> str:
    """The template's editable parts as runnable stubs (the 'no solution' program)."""
    return "\n\n".join(stub(c) for c in _chunks(problem) if c.kind == "editable") + "\n"


def program_parts(problem: Any, solution: str, *, rewrite=None) -> list[tuple[str, str]]:
    """The (filename, source) parts of the program, in execution order.

    ``rewrite`` (the ``current`` mode's harness shims) maps harness source to harness source; it is
    never applied to the solution.
    """
    fix = rewrite or (lambda s: s)
    parts: list[tuple[str, str]] = []
    placed = False
    post: list[str] = []
    for c in _chunks(problem):
        if c.kind == "editable":
            if not placed:
                parts.append((SOLUTION_FILE, solution))
                placed = True
        elif c.kind in ("import", "given", "run", "check"):
            parts.append(("<qhack-harness>", fix(c.text)))
            if c.kind in ("run", "check") or (c.kind == "given" and c.name):
                post.append(fix(c.text))
    if not placed:
        parts.append((SOLUTION_FILE, solution))
    parts.append(("<qhack-harness-post>", "\n\n".join(post) + "\n"))
    return parts


# ---------------------------------------------------------------- comparison (trusted parent)

def _num(tok: str) -> float | None:
    try:
        return float(tok)
    except ValueError:
        return None


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[,\s]+", text.strip()) if t]


def _last_line(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[-1].strip() if lines else ""


def compare_script(got_stdout: str, expected: str, rule: dict[str, Any]) -> tuple[bool, str]:
    """2022: the driver's last printed line against ``N.ans``.

    Tokens (split on commas/whitespace) must match one for one; with a relative tolerance,
    numeric tokens may differ by ``rel`` relative to the expected value (``rel`` absolute when the
    expected value is 0); text tokens and, without a tolerance, all tokens match exactly (numbers
    by value). ``accuracy`` rules need that fraction of tokens to match.

    >>> compare_script("0.50001\\n", "0.5", {"func": "tokens", "rel": 1e-4})
    (True, '')
    """
    got, exp = _tokens(_last_line(got_stdout)), _tokens(expected)
    rel = rule.get("rel")

    def same(g: str, e: str) -> bool:
        gn, en = _num(g), _num(e)
        if gn is None or en is None:
            return g == e
        if rel is None:
            return gn == en
        return math.isclose(gn, en, rel_tol=rel, abs_tol=rel if en == 0 else 0.0)

    if rule.get("func") == "accuracy":
        if len(got) != len(exp) or not exp:
            return False, f"expected {len(exp)} values, got {len(got)}"
        acc = sum(same(g, e) for g, e in zip(got, exp, strict=True)) / len(exp)
        ok = acc > rule["min"]
        return ok, "" if ok else f"accuracy {acc:.3f} not above {rule['min']:.2f}"
    if len(got) != len(exp):
        return False, f"expected {len(exp)} value(s), got {len(got)}"
    for i, (g, e) in enumerate(zip(got, exp, strict=True)):
        if not same(g, e):
            return False, f"value {i}: got {g}, expected {e}"
    return True, ""


def compare_numeric(output: str, expected: str, rule: dict[str, Any]) -> tuple[bool, str] | None:
    """2023/2024: repeat ``check()``'s ``np.allclose``/``np.isclose`` on the raw outputs.

    ``None`` when the values are not numeric JSON (then only ``check()`` decides).
    """
    import numpy as np

    try:
        got = np.asarray(json.loads(output), dtype=complex)
        exp = np.asarray(json.loads(expected), dtype=complex)
    except (ValueError, TypeError):
        return None
    try:
        close = np.isclose(got, exp, rtol=rule["rtol"], atol=rule["atol"])
    except ValueError:
        return False, f"output shape {got.shape} does not match expected {exp.shape}"
    ok = bool(np.all(close))
    return ok, "" if ok else "output not within tolerance of the expected value (trusted re-check)"


# ---------------------------------------------------------------- error classes

_PL_FRAME = re.compile(r"[/\\](pennylane|pennylane_lightning|autograd|autoray)[/\\]")


def classify_exception(err: dict[str, Any], hallucinated: list[str]) -> str:
    """hallucination / api_misuse / reasoning for a runtime error record from the runner."""
    etype, msg = err.get("type", ""), err.get("message", "")
    names = set(hallucinated)
    if etype in ("AttributeError", "ImportError", "ModuleNotFoundError", "NameError"):
        if any(n.split(".")[-1] in msg for n in names):
            return "hallucination"
        if re.search(r"module 'pennylane[\w.]*' has no attribute|cannot import name .* from "
                     r"'pennylane|autoray couldn't find function", msg):
            return "hallucination"
    frames = err.get("frames") or []
    if any(_PL_FRAME.search(str(f[0])) for f in frames) and any(
            f[0] == SOLUTION_FILE for f in frames):
        return "api_misuse"
    if etype in ("AttributeError", "TypeError") and re.search(
            r"'(QNode|Device|DefaultQubit\w*|Operation|Operator|Tensor|Hamiltonian|"
            r"QuantumTape|QuantumScript|MeasurementProcess)\w*' object", msg):
        return "api_misuse"
    return "reasoning"


def find_hallucinated(code: str, version: str) -> list[str]:
    """qml.* names in ``code`` that PennyLane ``version`` does not have ([] when the index is
    not available)."""
    try:
        from ..metrics.hallucination import find_hallucinations
    except ImportError:
        return []
    try:
        found = find_hallucinations(code, version)
    except Exception:  # noqa: BLE001 - the index may not cover this version
        return []
    return [str(f.name) for f in found or [] if getattr(f, "status", "ok") != "ok"]


# ---------------------------------------------------------------- the judge

class QHackJudge:
    """Judge for QHack completions (see the module docstring for the protocol).

    ``env="era"`` runs in the challenge year's era environment (created on first use);
    ``env="current"`` runs in this interpreter's PennyLane with the harness-only shims of
    :mod:`.qhack_shims` (``shims=False`` leaves them out); ``python=`` forces an interpreter.
    """

    benchmark = "qhack"

    def __init__(self, env: str = "era", *, python: str | None = None,
                 time_limit_scale: float = 1.0, startup_allowance: float = STARTUP_ALLOWANCE,
                 memory_mb: int = 4096, shims: bool = True):
        if env not in ("era", "current"):
            raise ValueError(f"QHack env must be 'era' or 'current', got {env!r}")
        self.env = env
        self.python = python
        self.time_limit_scale = time_limit_scale
        self.startup_allowance = startup_allowance
        self.memory_mb = memory_mb
        self.shims = shims
        # written back with the result; a program that writes the result file itself (and exits
        # before the runner does) does not know it
        self._nonce = secrets.token_hex(16)
        self._pythons: dict[str, str | None] = {}

    # -- planning
    def interpreter(self, problem: Any) -> str | None:
        if self.python is not None:
            return self.python
        if self.env == "current":
            return None
        name = _get(problem, "era_env")
        if name not in self._pythons:
            from ..benchmarks import qhack_envs as eras

            self._pythons[name] = str(eras.env_python(name, create=True))
        return self._pythons[name]

    def _rewrite(self):
        if self.env != "current" or not self.shims:
            return None
        from .qhack_shims import rewrite_harness

        return rewrite_harness

    def program_jobs(self, problem: Any, solution: str) -> list[Any]:
        """One job per public test (a run-only job when the challenge has none)."""
        try:
            from ..execution import Job, Limits
        except ImportError:  # the sandbox package exports them; types is where they live
            from ..execution.types import Job, Limits

        parts = program_parts(problem, solution, rewrite=self._rewrite())
        rewrite = self._rewrite()
        if rewrite is not None:
            from .qhack_shims import SHIM_PRELUDE

            parts.insert(0, ("<qhack-shims>", SHIM_PRELUDE))
        fmt = _get(problem, "format")
        driver = _get(problem, "driver")
        if rewrite is not None and fmt == "script":
            driver = rewrite(driver)
        limit = float(_get(problem, "time_limit")) * self.time_limit_scale + self.startup_allowance
        tests = list(_get(problem, "tests")) or [{"name": "run only", "input": "",
                                                  "expected": None}]
        python = self.interpreter(problem)
        jobs = []
        for t in tests:
            spec = {"parts": parts, "format": fmt, "driver": driver, "input": t["input"],
                    "expected": t["expected"], "nonce": self._nonce}
            jobs.append(Job(_RUNNER, id=f"{_get(problem, 'id')}::{t['name']}",
                            files={JOB_FILE: json.dumps(spec)}, collect=(RESULT_FILE,),
                            python=python, preload=("numpy", "pennylane"),
                            limits=Limits(wall_time=limit, cpu_time=2 * limit,
                                          memory_mb=self.memory_mb)))
        return jobs

    def jobs(self, problem: Any, completion: str) -> list[Any] | Verdict:
        from ..codeblocks import extract_code

        code = extract_code(completion or "", plain_ok=True)
        if code is None or not code.strip():
            return self._format(problem, "no_code", "no code found in the completion")
        try:
            prepared = prepare(problem, code)
        except FormatProblem as exc:
            return self._format(problem, exc.reason, str(exc))
        return self.program_jobs(problem, prepared.source)

    def _format(self, problem: Any, reason: str, message: str) -> Verdict:
        return Verdict(benchmark="qhack", problem_id=_get(problem, "id"), status="FORMAT",
                       tests_total=max(1, len(_get(problem, "tests"))), error_class="formatting",
                       message=message, details={"format": reason, "env": self.env})

    # -- deciding
    def _one(self, problem: Any, test: dict[str, Any], r: Any) -> tuple[TestResult, dict | None]:
        name = test["name"]
        seconds = getattr(r, "wall_time", None)
        if r.status == "timeout":
            return TestResult(name, False, "TLE", message="time limit exceeded",
                              seconds=seconds), None
        if r.status == "memory":
            return TestResult(name, False, "MLE", message="memory limit exceeded",
                              seconds=seconds), None
        raw = (r.files or {}).get(RESULT_FILE)
        try:
            res = json.loads(raw) if raw else None
        except ValueError:
            res = None
        if isinstance(res, dict) and res.get("nonce") != self._nonce:
            err = {"phase": "exit", "type": "ForgedResult", "frames": [],
                   "message": "the result file was not written by the judge's runner"}
            return TestResult(name, False, "RE", message=err["message"], seconds=seconds), err
        if not isinstance(res, dict):
            tail = (r.stderr or "")[-500:]
            err = {"phase": "exit", "type": getattr(r.exception, "type", "") or r.status,
                   "message": f"the program ended without a result ({r.status}). {tail}",
                   "frames": []}
            return TestResult(name, False, "RE", message=err["message"], seconds=seconds), err
        if "error" in res:
            err = res["error"]
            where = {"load": "while loading", "run": "in run()", "check": "in check()",
                     "driver": "in the driver"}.get(err.get("phase"), "")
            msg = f"{err.get('type')} {where}: {err.get('message', '')}".strip()
            if err.get("phase") == "check" and not any(
                    f[0] == SOLUTION_FILE for f in err.get("frames") or []):
                return TestResult(name, False, "WA", expected=test["expected"],
                                  got=res.get("output", res.get("output_repr")),
                                  message="check() rejected the output: " + msg,
                                  seconds=seconds), None
            return TestResult(name, False, "RE", message=msg, seconds=seconds), err
        if _get(problem, "format") == "script":
            rule = json.loads(_get(problem, "compare") or '{"func": "tokens", "rel": null}')
            ok, why = compare_script(res.get("stdout", ""), test["expected"], rule)
            return TestResult(name, ok, "AC" if ok else "WA", expected=test["expected"].strip(),
                              got=_last_line(res.get("stdout", "")), message=why,
                              seconds=seconds), None
        got = res.get("output", res.get("output_repr"))
        chk = res.get("check") or {}
        if not chk.get("passed"):
            why = chk.get("message") or "check() failed"
            return TestResult(name, False, "WA", expected=test["expected"], got=got,
                              message=f"{why} (have {str(got)[:200]!r}, want "
                                      f"{str(test['expected'])[:200]!r})",
                              seconds=seconds), None
        rule = _get(problem, "compare")
        if rule and test["expected"] is not None:
            if "output" not in res:
                return TestResult(name, False, "WA", expected=test["expected"], got=got,
                                  message="run() did not return a string", seconds=seconds), None
            again = compare_numeric(res["output"], test["expected"], json.loads(rule))
            if again is not None and not again[0]:
                return TestResult(name, False, "WA", expected=test["expected"], got=got,
                                  message=again[1], seconds=seconds), None
        return TestResult(name, True, "AC", expected=test["expected"], got=got,
                          seconds=seconds), None

    def decide(self, problem: Any, completion: str, results: list[Any]) -> Verdict:
        tests = list(_get(problem, "tests")) or [{"name": "run only", "input": "",
                                                  "expected": None}]
        outcomes = [self._one(problem, t, r) for t, r in zip(tests, results, strict=True)]
        detail = [o[0] for o in outcomes]
        passed = sum(t.passed for t in detail)
        pid = _get(problem, "id")
        details: dict[str, Any] = {"env": self.env, "python": self.interpreter(problem)
                                   if self.env == "era" or self.python else None}
        if not _get(problem, "tests"):
            details["unverified"] = "no public test has an expected output; run-only check"
        timings = {"wall_time": sum(getattr(r, "wall_time", 0.0) or 0.0 for r in results)}
        if passed == len(detail):
            return Verdict("qhack", pid, "AC", passed, len(detail), detail, timings=timings,
                           details=details)
        first = next(i for i, t in enumerate(detail) if not t.passed)
        status = detail[first].status or "WA"
        err = outcomes[first][1]
        if status == "TLE":
            klass = "timeout"
        elif status == "MLE":
            klass = None
        elif status == "WA":
            klass = "reasoning"
        else:
            from ..codeblocks import extract_code

            code = extract_code(completion or "", plain_ok=True) or ""
            hall = find_hallucinated(code, _get(problem, "pennylane_version"))
            if hall:
                details["hallucinated"] = hall
            klass = classify_exception(err or {}, hall)
            if err and err.get("phase") == "load" and not any(
                    f[0] == SOLUTION_FILE for f in err.get("frames") or []):
                details["harness_error"] = True
            if err and err.get("traceback"):
                details["traceback"] = err["traceback"][-3000:]
        message = f"{detail[first].name}: {detail[first].message}"
        return Verdict("qhack", pid, status, passed, len(detail), detail, error_class=klass,
                       message=message, timings=timings, details=details)


def make_judge(env: str = "era", **options: Any) -> QHackJudge:
    return QHackJudge(env=env, **options)


def harness_incompatibility(result: dict[str, Any]) -> str | None:
    """For a run of the *unfilled* template: the error that comes from the benchmark's own code
    (an API its PennyLane lacks), or ``None`` when it failed only because the solution is missing.

    Loading must succeed (imports, given code, stub headers); afterwards ImportErrors and
    AttributeErrors on anything but ``None`` count as incompatibilities.
    """
    err = result.get("error")
    if not err:
        return None
    text = f"{err.get('phase')}: {err.get('type')}: {err.get('message')}"
    if err.get("phase") == "load":
        return text
    msg = err.get("message", "")
    if err.get("type") in ("ImportError", "ModuleNotFoundError") and re.search(
            r"cannot import name|No module named", msg):
        return text
    if err.get("type") == "AttributeError" and "'NoneType'" not in msg:
        return text
    return None
