"""From a completion to the program that runs in the sandbox: the solution parts, then the harness.

Only the *solution parts* of a completion are kept (see :func:`prepare`), so that a completion
that repeats the template's given code, or rebinds what the harness uses, is judged exactly as if
it had sent only its solution functions.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

from ...formats.qhack_template import Chunk, stub
from ...formats.qhack_template import parse as _parse

SOLUTION_FILE = "<solution>"
HARNESS_NAMES = frozenset({"run", "check", "test_cases"})
#: names that, outside a function body, reach into modules, globals or builtins
_REACHING = frozenset({"setattr", "delattr", "globals", "vars", "locals", "__setattr__",
                       "__delattr__", "__dict__", "__builtins__", "builtins", "__import__",
                       "exec", "eval", "compile", "__class__", "__globals__", "modules",
                       "f_globals", "f_locals", "f_builtins", "_getframe"})
#: those that reach as attributes too (``exec``, ``compile``, ... are also ordinary attribute
#: names: ``qml.compile``, ``re.compile``)
_REACHING_ATTRS = _REACHING - {"exec", "eval", "compile", "vars", "locals", "globals"}


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


def get(problem: Any, key: str, default: Any = ...) -> Any:
    """A record field (dict or dataclass record)."""
    if isinstance(problem, dict):
        return problem[key] if default is ... else problem.get(key, default)
    return getattr(problem, key) if default is ... else getattr(problem, key, default)


def chunks_of(problem: Any) -> list[Chunk]:
    out = []
    for c in get(problem, "chunks"):
        if isinstance(c, Chunk):
            out.append(c)
        else:
            out.append(Chunk(c["kind"], c["code"], c["name"] or None))
    return out


def _outer_nodes(node: ast.AST):
    """``node`` and what it contains, except the bodies of functions and lambdas (which run
    later, when the solution is called), but with their decorators and defaults."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend(n.decorator_list)
            stack.extend(d for d in n.args.defaults + n.args.kw_defaults if d is not None)
            if n.returns is not None:
                stack.append(n.returns)
        elif isinstance(n, ast.Lambda):
            stack.extend(d for d in n.args.defaults + n.args.kw_defaults if d is not None)
        else:
            stack.extend(ast.iter_child_nodes(n))


def bound_names(node: ast.AST) -> set[str]:
    """Names a top-level statement binds in the module namespace."""
    out: set[str] = set()
    for n in _outer_nodes(node):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.add(n.name)
        elif isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name):
            out.add(n.target.id)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            out.update(n.names)
    if isinstance(node, ast.ClassDef):  # a class body binds in its own namespace
        out = {node.name}
    return out


def harness_bound(chunks: list[Chunk]) -> set[str]:
    """Every top-level name the harness (imports, given code, run, check, tests) binds."""
    out = set(HARNESS_NAMES)
    for c in chunks:
        if c.kind in ("import", "given", "run", "check", "tests"):
            try:
                tree = _parse(c.text)
            except SyntaxError:
                if c.name:
                    out.add(c.name)
                continue
            for stmt in tree.body:
                out |= bound_names(stmt)
    return out


def harness_imported(chunks: list[Chunk]) -> set[str]:
    """The top-level names the harness binds only by its import statements (``np``, ``qml``)."""
    out: set[str] = set()
    for c in chunks:
        if c.kind == "import":
            try:
                tree = _parse(c.text)
            except SyntaxError:
                continue
            for stmt in tree.body:
                out |= bound_names(stmt)
    others = harness_bound([c for c in chunks if c.kind != "import"]) - set(HARNESS_NAMES)
    return out - others


def _item_of(n: ast.AST, own: set[str]) -> bool:
    """Whether ``n`` (a stored subscript) is an item of a name the solution itself bound
    (``M[0, 1] = 1.0`` after ``M = np.zeros(...)``: how matrices were written in notebooks)."""
    if not isinstance(n, ast.Subscript):
        return False
    base = n.value
    while isinstance(base, ast.Subscript):
        base = base.value
    return isinstance(base, ast.Name) and base.id in own


def _reaches(node: ast.AST, own: set[str] | None = None) -> str | None:
    """Why a statement must not run outside a function: it stores into an attribute or item (an
    item of a name in ``own``, the solution's own, excepted), or names something that reaches
    modules, globals or builtins."""
    for n in _outer_nodes(node):
        if isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, (ast.Store,
                                                                                  ast.Del)):
            if _item_of(n, own or set()):
                continue
            return "attribute assignment"
        if isinstance(n, ast.Name) and n.id in _REACHING:
            return n.id
        if isinstance(n, ast.Attribute) and n.attr in _REACHING_ATTRS:
            return n.attr
        if isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names):
            return "import *"
    return None


def _loop_targets(node: ast.AST) -> set[str]:
    """The names a top-level ``for`` loop binds as its target (``i``, ``j`` of ``for i, j``)."""
    if not isinstance(node, ast.For):
        return set()
    return {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}


def harness_loop_only(chunks: list[Chunk]) -> set[str]:
    """Names the harness binds only as a top-level ``for`` target (a given loop's ``i``): the
    harness rebinds them before it reads them, so a solution's own loop may use them too."""
    targets: set[str] = set()
    other: set[str] = set(HARNESS_NAMES)
    for c in chunks:
        if c.kind in ("import", "given", "run", "check", "tests"):
            try:
                tree = _parse(c.text)
            except SyntaxError:
                continue
            for stmt in tree.body:
                own = _loop_targets(stmt)
                targets |= own
                other |= bound_names(stmt) - own
    return targets - other


def _drives_harness(node: ast.AST) -> bool:
    """Whether a statement reads ``run``, ``check`` or ``test_cases``: the template's own test
    loop pasted back, not solution code."""
    return any(isinstance(n, ast.Name) and n.id in HARNESS_NAMES for n in ast.walk(node))


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
    """The solution parts of ``code`` (raises :class:`FormatProblem`).

    Kept: imports, ``def``/``class`` definitions, assignments to plain names, ``try``/``with``
    blocks, non-``__main__`` ``if`` blocks and ``for``/``while`` loops (filling a matrix the
    solution made, as a contestant's file ran them). Dropped: anything that binds a name the
    harness binds (its imports, given code, ``run``, ``check``, ``test_cases``) unless the
    template asks the contestant to write it (a loop's target may be a name the harness binds
    only as a loop target); assignments to attributes or items (of a name the solution bound
    itself excepted) and statements that name ``setattr``, ``globals``, ``builtins``, ...
    outside a function body; loops that read ``run``, ``check`` or ``test_cases`` (the
    template's test loop); ``from x import *``; top-level calls and ``__main__`` blocks.
    """
    try:
        tree = _parse(code)
    except SyntaxError as exc:
        raise FormatProblem("syntax_error", f"syntax error in the completion, line {exc.lineno}: "
                                            f"{exc.msg}") from exc
    chunks = chunks_of(problem)
    required = list(get(problem, "solution_functions"))
    protected = harness_bound(chunks) - set(required)
    loop_only = harness_loop_only(chunks)
    # an import may replace a harness import (``from pennylane import numpy as np`` over the
    # template's ``import numpy as np``), as an edited import line did in a pasted template
    importable = harness_imported(chunks)
    lines = code.splitlines()
    kept: list[str] = []
    defined: dict[str, ast.AST] = {}
    dropped: list[str] = []
    for node in tree.body:
        text = None
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if _reaches(node):
                dropped.append("import *")
                continue
            names = [a for a in node.names if (a.asname or a.name).split(".")[0] not in protected
                     or (a.asname or a.name).split(".")[0] in importable]
            if len(names) < len(node.names):
                dropped.extend((a.asname or a.name) for a in node.names if a not in names)
                if not names:
                    continue
                node.names = names
                text = ast.unparse(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign,
                               ast.AnnAssign, ast.AugAssign, ast.Try, ast.With, ast.For,
                               ast.While)) or (
                isinstance(node, ast.If) and not _is_main_guard(node)):
            names = bound_names(node)
            loop = isinstance(node, (ast.For, ast.While))
            # a loop may fill an item of a name it binds itself (``row = ...; row[i] = 1``)
            why = _reaches(node, set(defined) | (names - protected if loop else set()))
            if isinstance(node, ast.ClassDef) and why is None:
                why = next(filter(None, (_reaches(s) for s in node.body)), None)
            if loop and why is None and _drives_harness(node):
                why = "test loop"
            clash = sorted(names & protected - (_loop_targets(node) & loop_only))
            if clash or why:
                dropped.append(",".join(clash) or why or "")
                continue
            for n in names:
                defined.setdefault(n, node)
        else:
            dropped.append(type(node).__name__.lower())
            continue
        if text is None:
            start = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
            text = "\n".join(lines[start - 1:node.end_lineno])
        kept.append(text)
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
    return "\n\n".join(stub(c) for c in chunks_of(problem) if c.kind == "editable") + "\n"


def _chunk_binds(chunk: Chunk) -> set[str]:
    """The names an editable chunk is about (its def/class, or ``x`` of ``x = ...``)."""
    try:
        return {n for stmt in _parse(chunk.text).body for n in bound_names(stmt)}
    except SyntaxError:
        m = re.match(r"\s*(\w+)\s*=", "\n".join(ln for ln in chunk.text.splitlines()
                                                if not ln.lstrip().startswith("#")))
        return ({chunk.name} if chunk.name else set()) | ({m.group(1)} if m else set())


def place_solution(chunks: list[Chunk], solution: str) -> dict[int, str]:
    """Which editable chunk's position each part of the solution takes (chunk index -> source).

    A statement that defines an editable name goes where that name's chunk is, together with the
    statements before it that define no editable name (its helpers); the completion's order is
    kept (a part never goes before an earlier one), so given code placed between editable chunks
    (a device the next function's decorator uses) runs before the solution code that needs it.
    """
    editable = [i for i, c in enumerate(chunks) if c.kind == "editable"]
    if not editable:
        return {len(chunks): solution}
    try:
        tree = _parse(solution)
    except SyntaxError:
        return {editable[0]: solution}
    binds = {i: _chunk_binds(chunks[i]) for i in editable}
    lines = solution.splitlines()
    groups: dict[int, list[str]] = {}
    waiting: list[str] = []
    last = editable[0]
    for node in tree.body:
        start = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
        waiting.append("\n".join(lines[start - 1:node.end_lineno]))
        names = bound_names(node)
        home = next((i for i in editable if binds[i] & names), None)
        if home is not None:
            last = max(home, last)
            groups.setdefault(last, []).extend(waiting)
            waiting = []
    if waiting or not groups:
        groups.setdefault(last, []).extend(waiting)
    return {i: "\n\n".join(texts) + "\n" for i, texts in groups.items()}


def program_parts(problem: Any, solution: str, *, rewrite=None) -> list[tuple[str, str]]:
    """The (filename, source) parts of the program, in execution order: the harness chunks with
    the solution's parts in place of the editable chunks (:func:`place_solution`), then the given
    definitions and the official ``run``/``check`` once more.

    ``rewrite`` (the ``current`` mode's harness shims) maps harness source to harness source; it is
    never applied to the solution.
    """
    fix = rewrite or (lambda s: s)
    chunks = chunks_of(problem)
    placed = place_solution(chunks, solution)
    parts: list[tuple[str, str]] = []
    post: list[str] = []
    for i, c in enumerate(chunks):
        if i in placed:
            parts.append((SOLUTION_FILE, placed[i]))
        if c.kind in ("import", "given", "run", "check"):
            parts.append(("<qhack-harness>", fix(c.text)))
            if c.kind in ("run", "check") or (c.kind == "given" and c.name):
                post.append(fix(c.text))
    if len(chunks) in placed:
        parts.append((SOLUTION_FILE, placed[len(chunks)]))
    parts.append(("<qhack-harness-post>", "\n\n".join(post) + "\n"))
    return parts
