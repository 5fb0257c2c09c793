"""The contest's own way of running a QHack program, for tests and timing scripts.

``whole_template`` pastes a program into its challenge's whole template (built from the record
at run time: the templates may not be copied into this repository); ``official_loop`` runs that
in the era interpreter as the contest did (2022 scripts once per public test with ``N.in`` on
stdin, everything printed compared with ``N.ans``: "Do not add any print statements to your
solution, as this will cause your submission to fail"; notebooks through their own test loop,
which must print ``Correct!`` per test) and measures its CPU seconds.
"""

from __future__ import annotations

import ast
import json
import os
import re
import resource
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class OfficialRun:
    """``failure``: why the contest's loop rejects the program (None: accepted; "skip: ..."
    when it cannot run here); ``cpu``: CPU seconds of the interpreter(s) it ran."""

    failure: str | None
    cpu: float
    cpu_after_imports: float | None = None  # ``timed=True``: the processes' CPU after the imports


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _blank(chunk: dict) -> str | None:
    """The name an editable chunk defines: its ``name``, or the variable an unnamed blank
    assigns (``dev = `` in chalet_random_gate, ``U = # ...`` in travelling_eigentracks)."""
    if chunk["name"]:
        return chunk["name"]
    m = re.match(r"(?:\s*#[^\n]*\n)*\s*([A-Za-z_]\w*)\s*=(?!=)", chunk["code"])
    return m.group(1) if m else None


def whole_template(record, code: str, after_imports: str = "") -> str:
    """The template with each editable chunk replaced by the program's definition of that name
    (or its assignment of a blank's variable); the program's other definitions follow the
    template's imports (a participant's helpers), its top-level calls follow the last editable
    chunk (notebook leftovers). ``after_imports``: a line placed right after the template's
    leading imports."""
    tree = ast.parse(code)
    lines = code.splitlines()
    names = set(record.solution_functions)
    blanks = {_blank(c) for c in record.chunks if c["kind"] == "editable" and not c["name"]}
    defs: dict[str, str] = {}
    helpers: list[str] = []
    leftovers: list[str] = []  # notebook-cell calls (prints, draws): after the solution
    for node in tree.body:
        start = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
        text = "\n".join(lines[start - 1:node.end_lineno])
        name = getattr(node, "name", None)
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name) and node.targets[0].id in blanks:
            defs[node.targets[0].id] = text
        elif name in names:
            defs[name] = text
        elif isinstance(node, ast.Expr):
            leftovers.append(text)
        else:
            helpers.append(text)
    out: list[str] = []
    helpers_placed = False
    last = max(i for i, c in enumerate(record.chunks) if c["kind"] == "editable")
    for i, chunk in enumerate(record.chunks):
        if chunk["kind"] != "import" and not helpers_placed:
            out.append("\n".join(([after_imports] if after_imports else []) + helpers))
            helpers_placed = True
        if chunk["kind"] == "editable" and _blank(chunk) in defs:
            out.append(defs[_blank(chunk)])
        else:
            out.append(chunk["code"])
        if i == last:
            out.extend(leftovers)
    return "\n\n".join(out) + "\n"


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[,\s]+", text.strip()) if t]


def _token_ok(a: str, b: str, rel: float | None) -> bool:
    try:
        fa, fb = float(a), float(b)
    except ValueError:
        return a == b
    if rel is None:
        return fa == fb
    return not abs(fa - fb) > rel * (abs(fb) if fb else 1.0)  # as before: a nan passes


def _script_line_ok(got: str, want: str, rel: float | None,
                    min_accuracy: float | None = None) -> bool:
    """Token for token; with ``min_accuracy`` (the PDF's "Tolerance: >= 90 %" of a classifier)
    at least that fraction of the tokens must match."""
    g, w = _tokens(got), _tokens(want)
    if len(g) != len(w):
        return False
    ok = [_token_ok(a, b, rel) for a, b in zip(g, w, strict=True)]
    if min_accuracy is not None:
        return bool(w) and sum(ok) * 1000 >= round(min_accuracy * 1000) * len(w)
    return all(ok)


def era_python(record) -> str:
    roots = [Path(os.environ["QCE_CACHE"]) / "envs"] if os.environ.get("QCE_CACHE") else []
    roots.append(Path("/var/cache/quantum-codegen-eval/envs"))
    return next(str(p) for p in (r / f"qhack-{record.year}" / "bin" / "python" for r in roots)
                if p.exists())


def upstream_failure(name: str, record, code: str, workdir: Path) -> str | None:
    """Why the contest's own driver / test loop rejects the pasted program (None: it accepts)."""
    return official_loop(name, record, code, workdir).failure


def official_loop(name: str, record, code: str, workdir: Path, timeout: float = 300,
                  python: str | None = None, timed: bool = False) -> OfficialRun:
    """Run the pasted program as the contest did; its verdict and the CPU seconds it took
    (children's CPU of this process: measure one run at a time). ``python``: another
    interpreter than the record's era environment. ``timed``: also measure, inside the program,
    the CPU after the template's imports (``cpu_after_imports.py``, copied beside it)."""
    if python is None:
        try:
            python = era_python(record)
        except StopIteration:
            return OfficialRun(f"skip: no qhack-{record.year} era environment built", 0.0)
    before = _children_cpu()
    workdir.mkdir(parents=True)
    prog = workdir / "prog.py"
    mark = ""
    if timed:
        shutil.copy(Path(__file__).with_name("cpu_after_imports.py"), workdir)
        mark = "import cpu_after_imports  # noqa: F401"
    prog.write_text(whole_template(record, code, after_imports=mark))
    if record.format == "script":
        rule = json.loads(record.compare)
        rel = rule.get("rel")
        min_accuracy = rule["min"] if rule.get("func") == "accuracy" else None
        for t in record.tests:
            p = subprocess.run([python, str(prog)], input=t["input"], capture_output=True,
                               text=True, timeout=timeout, cwd=workdir)
            if p.returncode != 0:
                return OfficialRun(f"{name} test {t['name']}: exit {p.returncode}: "
                                   f"{p.stderr[-2000:]}", _children_cpu() - before)
            if not p.stdout.strip() or not _script_line_ok(p.stdout, t["expected"], rel,
                                                           min_accuracy):
                return OfficialRun(f"{name} test {t['name']}: printed {p.stdout[-300:]!r}, "
                                   f"want {t['expected']!r}", _children_cpu() - before)
        return OfficialRun(None, _children_cpu() - before, _marked(workdir))
    p = subprocess.run([python, str(prog)], capture_output=True, text=True, timeout=timeout,
                       cwd=workdir)
    cpu = _children_cpu() - before
    if p.returncode != 0 or p.stdout.count("Correct!") != len(record.tests):
        return OfficialRun(f"{name}: exit {p.returncode}: {p.stdout[-1500:]} {p.stderr[-2000:]}",
                           cpu)
    return OfficialRun(None, cpu, _marked(workdir))


def _marked(workdir: Path) -> float | None:
    """The sum of what ``cpu_after_imports`` wrote (None: the run was not timed)."""
    path = workdir / "cpu_after_imports"
    return sum(map(float, path.read_text().split())) if path.exists() else None


