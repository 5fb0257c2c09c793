"""Reading a QHack template: which top-level parts a contestant writes and which belong to the judge.

A template (a 2022 ``*_template.py`` or the code cells of a 2023/2024 notebook, joined) is split
into top-level *chunks* by lines, so that templates that do not parse (empty bodies, ``x =``) still
split. Each chunk is one of:

``import``    an import (harness)
``given``     code the template supplies: complete functions, globals, ``# Uneditable section #``
``editable``  a function/class/statement the contestant completes (a ``# QHACK #`` or
              ``Put your code here`` marker, a trivial body, or code that does not parse yet)
``run`` / ``check``   the notebook judge functions (harness)
``tests``     the ``test_cases = ...`` assignment
``driver``    the stdin/stdout ``if __name__ == "__main__":`` block or the notebook test loop

>>> parts = split_template('import json\\n\\ndef f(x):\\n    # Put your code here #\\n    return\\n')
>>> [(c.kind, c.name) for c in parts]
[('import', None), ('editable', 'f')]
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass

_EDIT_MARK = re.compile(
    r"#\s*QHACK\b|put your (code|solution)|your code here|put code here|write any helper"
    r"|feel free to write|write any subroutines|put the rotation gates here|put hadamard gates",
    re.IGNORECASE,
)
_UNEDITABLE_START = re.compile(r"^#\s*Uneditable section", re.IGNORECASE)
_KEYWORD_START = re.compile(r"^(def|class|async|if|for|while|with|try|import|from|@)\b")
_HEADER = re.compile(r"^(async\s+def|def|class)\s+(\w+)")


@dataclass
class Chunk:
    """One top-level piece of a template."""

    kind: str
    text: str
    name: str | None = None
    start_line: int = 1


def parse(code: str) -> ast.Module:
    """``ast.parse`` without the escape-sequence warnings of upstream code."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        return ast.parse(code)


def _top_level_starts(lines: list[str]) -> list[int]:
    """Indices of lines that start a top-level statement (decorators attach to their def)."""
    starts: list[int] = []
    in_string: str | None = None
    depth = 0  # open brackets carried over from previous lines
    prev_decorator = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if in_string is None and _KEYWORD_START.match(line):
            depth = 0  # e.g. "def circuit(# put arguments here):" never closes its bracket
        at_top = (in_string is None and depth == 0 and line[:1] not in (" ", "\t", "")
                  and not stripped.startswith("#") and not stripped.startswith(")"))
        if at_top and not prev_decorator and not re.match(r"(else|elif|except|finally)\b", stripped):
            starts.append(i)
        if at_top:
            prev_decorator = stripped.startswith("@")
        elif stripped and not stripped.startswith("#"):
            prev_decorator = False
        in_string, depth = _scan(line, in_string, depth)
    return starts


def _scan(line: str, in_string: str | None, depth: int) -> tuple[str | None, int]:
    """Track triple-quoted strings and bracket depth across lines (enough for templates)."""
    i = 0
    while i < len(line):
        if in_string:
            j = line.find(in_string, i)
            if j < 0:
                return in_string, depth
            i, in_string = j + 3, None
            continue
        ch = line[i]
        if ch == "#":
            break
        if line.startswith(('"""', "'''"), i):
            in_string = line[i:i + 3]
            i += 3
            continue
        if ch in "\"'":
            j = i + 1
            while j < len(line) and line[j] != ch:
                j += 2 if line[j] == "\\" else 1
            i = j + 1
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        i += 1
    return in_string, depth


def _trivial_body(node: ast.AST) -> bool:
    """A def whose body is only a docstring, ``pass``, ``...`` or a bare ``return``."""
    body = list(getattr(node, "body", []))
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    for stmt in body:
        if isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        if isinstance(stmt, ast.Return) and (stmt.value is None or (
                isinstance(stmt.value, ast.Constant) and stmt.value.value is None)):
            continue
        return False
    return True


def _promised_return_missing(node: ast.AST) -> bool:
    """A function whose docstring documents a return value but whose body returns nothing."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    doc = ast.get_docstring(node) or ""
    m = re.search(r"^\s*Returns?:\s*\n(.*)", doc, re.MULTILINE | re.DOTALL)
    if not m or re.search(r"does not return|nothing|none\b", m.group(1)[:120], re.IGNORECASE):
        return False
    own = [n for n in ast.walk(node) if isinstance(n, (ast.Return, ast.Yield))]
    return not any(getattr(n, "value", None) is not None for n in own)


def _classify(text: str, uneditable: bool) -> tuple[str, str | None]:
    code = "\n".join(ln for ln in text.splitlines() if not ln.strip().startswith("#"))
    head = code.lstrip()
    m = _HEADER.match(re.sub(r"^(@[^\n]*\n\s*)+", "", head))
    name = m.group(2) if m else None
    if head.startswith(("import ", "from ")):
        return "import", None
    if name in ("run", "check"):
        return name, name
    if re.match(r"test_cases\s*=", head):
        return "tests", "test_cases"
    if re.match(r"if\s+__name__\s*==", head) or re.match(r"for\b.*\btest_cases\b", head):
        return "driver", None
    try:
        tree = parse(text)
    except SyntaxError:
        return "editable", name
    if _EDIT_MARK.search(text):
        return "editable", name
    if name and not uneditable and tree.body and (
            _trivial_body(tree.body[0]) or _promised_return_missing(tree.body[0])):
        return "editable", name
    return "given", name


def split_template(code: str) -> list[Chunk]:
    """Split template code into classified top-level chunks (comments stay with the chunk above,
    except a leading comment block, which goes with the chunk below)."""
    lines = code.splitlines()
    starts = _top_level_starts(lines)
    if not starts:
        return []
    leads = []
    for k, a in enumerate(starts):
        lead, floor = a, (starts[k - 1] + 1 if k else 0)
        while lead > floor and (not lines[lead - 1].strip() or lines[lead - 1].startswith("#")):
            lead -= 1
        leads.append(a if k == 0 and not starts else lead)
    leads[0] = 0
    chunks: list[Chunk] = []
    uneditable = False
    for k, a in enumerate(starts):
        lead, end = leads[k], (leads[k + 1] if k + 1 < len(starts) else len(lines))
        text = "\n".join(lines[lead:end]).strip("\n")
        head_comments = [ln.strip() for ln in lines[lead:a] if ln.strip()]
        if any(_UNEDITABLE_START.match(c) for c in head_comments):
            uneditable = True
        if re.search(r"#\s*End of uneditable section", text, re.IGNORECASE):
            uneditable = False
        kind, name = _classify(text, uneditable)
        if kind == "editable" and uneditable and not _EDIT_MARK.search(text):
            try:
                parse(text)
                kind = "given"
            except SyntaxError:
                pass
        chunks.append(Chunk(kind, text + "\n", name, lead + 1))
    return chunks


def solution_names(chunks: list[Chunk]) -> list[str]:
    """Names of the functions/classes the contestant must write."""
    return [c.name for c in chunks if c.kind == "editable" and c.name]


def stub(chunk: Chunk) -> str:
    """The unfilled version of an editable chunk that still runs: its def/class header with
    ``pass`` (decorators dropped); statements that do not parse become nothing."""
    lines = chunk.text.splitlines()
    for i, line in enumerate(lines):
        if _HEADER.match(line):
            header = []
            for ln in lines[i:]:
                header.append(ln)
                candidate = "\n".join(header) + "\n    pass\n"
                try:
                    parse(candidate)
                    return candidate
                except SyntaxError:
                    continue
            break
    try:
        parse(chunk.text)
        return chunk.text
    except SyntaxError:
        return ""
