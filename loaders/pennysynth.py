"""Build a PennySynth-style corpus (instruction–code pairs, verified, deduplicated).

Two sources:

* ``--source pennylane`` (or none): harvest the code examples of the installed PennyLane's own
  docstrings (the wheel ships no rst docs). Each ``.. code-block:: python`` block and each
  doctest paragraph (``>>>`` lines become statements; their printed output is dropped, statements
  whose expected output is a traceback are left out) is one example; earlier blocks of the same
  docstring that define names it uses are prepended, ``import pennylane as qml`` /
  ``from pennylane import numpy as np`` are added when used but not imported, and other free
  names are imported from the docstring's module (or ``pennylane``) when it has them. The
  instruction is the object's public name (``qml.RX``) and summary line plus the prose just
  before the block. Every example runs in the
  sandbox (``verified`` = exits cleanly on the installed PennyLane within ``time_limit``), then
  verified examples are deduplicated on :func:`normalise` (identifiers renamed, formatting,
  comments, docstrings, float and string values erased; ``qml.*`` names, imported names, integers
  and statement order kept).
* a JSONL/JSON/Parquet file (or dataset folder) in the PennySynth schema: validated and written as
  a dataset folder (no re-verification).

Options: ``modules`` (comma-separated module prefixes, default ``pennylane``), ``limit`` (max
examples, in module order), ``time_limit`` (CPU seconds per example, default 20; wall clock 3x),
``workers``, ``keep_failed`` (also write unverified examples, default false), ``progress``
(a progress bar on stderr, default true).

>>> normalise("a = qml.RX(0.1, wires=0)") == normalise("angle=qml.RX( 0.7 ,wires=0)  # c")
True
>>> normalise("a = qml.RX(0.1, wires=0)") == normalise("a = qml.RY(0.1, wires=0)")
False
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import importlib
import inspect
import json
import pkgutil
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quantum_codegen_eval.benchmarks.pennysynth import FEATURES, SPLIT, validate_row
from quantum_codegen_eval.dataset_cards import card_body, yaml_header

DEFAULT_TIME_LIMIT = 20.0
_PREAMBLE = {"qml": "import pennylane as qml", "qp": "import pennylane as qp",
             "np": "from pennylane import numpy as np",
             "pnp": "from pennylane import numpy as pnp"}
_SKIP_MODULE = re.compile(r"(^|\.)(tests?|conftest)(\.|$)|\.test_")
_CODE_LANGS = {"python", "python3", "py", "pycon", "ipython", "default", ""}


@dataclass
class Candidate:
    """One harvested example before verification."""

    id: str
    source_ref: str
    instruction: str
    code: str
    status: str = "unverified"
    message: str = ""
    cluster: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------- docstring parsing

def _clean_rst(text: str) -> str:
    text = re.sub(r":[\w:.-]+:`~?\.?([^`<]*?)\s*<[^`>]*>`", r"`\1`", text)
    text = re.sub(r":[\w:.-]+:`~?\.?([^`]*)`", r"`\1`", text)
    text = re.sub(r"``([^`]*)``", r"`\1`", text)
    text = re.sub(r"^\s*\*\*[^*]+\*\*:?\s*$", "", text, flags=re.MULTILINE)
    text = re.sub(r"^\s*\.\. [\w-]+::.*$", "", text, flags=re.MULTILINE)
    return re.sub(r"[ \t]*\n[ \t]*", " ", text.strip()).strip()


def _doctest_to_code(lines: list[str]) -> str:
    """Statements of a doctest paragraph; outputs dropped, expected-to-raise statements dropped."""
    stmts: list[list[str]] = []
    outputs: list[list[str]] = []
    for line in lines:
        s = line.strip()
        if s.startswith(">>>"):
            stmts.append([s[4:] if s.startswith(">>> ") else s[3:]])
            outputs.append([])
        elif s.startswith("...") and stmts and not outputs[-1]:
            stmts[-1].append(s[4:] if s.startswith("... ") else s[3:])
        elif stmts:
            outputs[-1].append(s)
    keep = [st for st, out in zip(stmts, outputs, strict=True)
            if not (out and out[0].startswith("Traceback"))]
    code = "\n".join("\n".join(st) for st in keep)
    return re.sub(r"\s*#\s*doctest:.*$", "", code, flags=re.MULTILINE).strip() + "\n"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def docstring_examples(doc: str) -> list[tuple[str, str]]:
    """[(preceding prose, code)] for each example in an (inspect.cleandoc'ed) docstring."""
    lines = doc.splitlines()
    out: list[tuple[str, str]] = []
    prose: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(\s*)\.\. code(?:-block)?::\s*(\S*)\s*$", line)
        if m:
            base = len(m.group(1))
            i += 1
            while i < len(lines) and re.match(r"^\s*:\w[\w-]*:", lines[i]):
                i += 1  # directive options
            body: list[str] = []
            while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > base):
                body.append(lines[i])
                i += 1
            text = inspect.cleandoc("\n".join(body)) if any(b.strip() for b in body) else ""
            if text and m.group(2).lower() in _CODE_LANGS:
                if text.lstrip().startswith(">>>"):
                    text = _doctest_to_code(text.splitlines())
                out.append((_clean_rst("\n".join(prose[-12:])), text.rstrip() + "\n"))
            prose = []
            continue
        if line.strip().startswith(">>>"):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i])
                i += 1
            code = _doctest_to_code(block)
            if code.strip():
                out.append((_clean_rst("\n".join(prose[-12:])), code))
            prose = []
            continue
        if not line.strip():
            if prose and prose[-1]:
                prose.append("")
        else:
            if prose and not prose[-1]:
                prose = []  # keep only the paragraph just before the block
            prose.append(line)
        i += 1
    return out


# ---------------------------------------------------------------- names and normalisation

_BUILTINS = set(dir(builtins))


def _defs_and_free(code: str) -> tuple[set[str], set[str]] | None:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    defs: set[str] = set()
    loads: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loads if isinstance(node.ctx, ast.Load) else defs).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defs.add(node.name)
        elif isinstance(node, ast.arg):
            defs.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                defs.add((a.asname or a.name).split(".")[0])
    return defs, loads - defs - _BUILTINS


def _self_contained(blocks: list[str], i: int, context: Any = None) -> str:
    """Block ``i`` with the earlier blocks it depends on and the imports it needs.

    Names still free after that are imported from ``context`` (the module whose docstring holds
    the example: its docs are written in that namespace) or else from ``pennylane``.
    """
    info = [_defs_and_free(b) for b in blocks]
    if info[i] is None:
        return blocks[i]
    needed = set(info[i][1]) - set(_PREAMBLE)
    chosen = [i]
    for j in range(i - 1, -1, -1):
        if not needed:
            break
        if info[j] is None or not (info[j][0] & needed):
            continue
        chosen.append(j)
        needed = (needed - info[j][0]) | (info[j][1] - set(_PREAMBLE))
    code = "\n".join(blocks[j].rstrip() + "\n" for j in sorted(chosen))
    final = _defs_and_free(code)
    free = final[1] if final else set()
    imports = [stmt for name, stmt in _PREAMBLE.items() if name in free]
    for name in sorted(free - set(_PREAMBLE)):
        for mod in (context, sys.modules.get("pennylane")):
            if mod is not None and not name.startswith("_") and hasattr(mod, name):
                imports.append(f"from {mod.__name__} import {name}")
                break
    return ("\n".join(imports) + "\n\n" if imports else "") + code


class _Normaliser(ast.NodeTransformer):
    def __init__(self, aliases: dict[str, str]) -> None:
        self.aliases = aliases
        self.names: dict[str, str] = {}

    def _n(self, name: str) -> str:
        if name in self.aliases:
            return self.aliases[name]
        if name in _BUILTINS:
            return name
        return self.names.setdefault(name, f"v{len(self.names)}")

    def visit_alias(self, node: ast.alias) -> ast.AST:
        node.asname = None
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = self._n(node.id)
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = self._n(node.arg)
        node.annotation = None
        return node

    def _strip_docstring(self, node: Any) -> None:
        body = node.body
        if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]

    def visit_FunctionDef(self, node: Any) -> ast.AST:
        node.name = self._n(node.name)
        node.returns = None
        self._strip_docstring(node)
        self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.name = self._n(node.name)
        self._strip_docstring(node)
        self.generic_visit(node)
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST | None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return None  # bare strings are comments
        self.generic_visit(node)
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        return ast.Constant("S")

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, str):
            return ast.Constant("S")
        if isinstance(node.value, (float, complex)):
            return ast.Name("FLOAT", ast.Load())
        return node  # ints, bools, None: wires and sizes define the circuit


def normalise(code: str) -> str:
    """Code with formatting, comments, docstrings, local names, floats and strings erased.

    Kept: imported names, as what they import (``qml`` and ``qp`` both become ``pennylane``;
    ``np`` alone is taken to be ``pennylane.numpy``), attribute names (``qml.RX``),
    keyword names (``wires=``), builtins, integers and the order of statements. Code that does
    not parse is normalised on whitespace only.
    """
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return re.sub(r"\s+", " ", re.sub(r"#.*", "", code)).strip()
    # imported names stand for what they import, so `qml.RX` and `qp.RX` are the same call
    aliases = {"qml": "pennylane", "qp": "pennylane", "np": "pennylane.numpy",
               "pnp": "pennylane.numpy"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else \
                    a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                aliases[a.asname or a.name] = f"{node.module or ''}.{a.name}"
    tree = _Normaliser(aliases).visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree))


def cluster_key(code: str) -> str:
    """The dedup cluster id: a hash of :func:`normalise`."""
    return "c" + hashlib.sha1(normalise(code).encode()).hexdigest()[:12]


# ---------------------------------------------------------------- harvesting

def _walk(prefixes: list[str]) -> list[Any]:
    names: set[str] = set()
    for prefix in prefixes:
        try:
            top = importlib.import_module(prefix)
        except ImportError as exc:
            raise ValueError(f"pennysynth builder: cannot import module {prefix!r}: {exc}") from exc
        names.add(prefix)
        if hasattr(top, "__path__"):
            names |= {m.name for m in pkgutil.walk_packages(
                top.__path__, prefix + ".", onerror=lambda _n: None)}
    mods = []
    for name in sorted(names):
        if _SKIP_MODULE.search(name):
            continue
        try:
            mods.append(importlib.import_module(name))
        except BaseException:  # noqa: B036 - optional deps (jax, catalyst) raise odd things
            continue
    return mods


def _public_name(mod: Any, name: str, obj: Any) -> str:
    """``qml.X`` when ``pennylane.X`` is the object, else the ``qml.``-prefixed module path."""
    top = sys.modules.get("pennylane")
    if top is not None and getattr(top, name, None) is obj:
        return f"qml.{name}"
    return f"{mod.__name__}.{name}".replace("pennylane.", "qml.", 1)


def _docs(mod: Any) -> list[tuple[str, str, str]]:
    """[(qualified name, public name, docstring)] of the public classes, functions and methods
    defined in ``mod`` (and of ``mod`` itself)."""
    out = []
    if mod.__doc__:
        out.append((mod.__name__, mod.__name__.replace("pennylane", "qml", 1),
                    inspect.cleandoc(mod.__doc__)))
    for name, obj in sorted(vars(mod).items()):
        if name.startswith("_") or getattr(obj, "__module__", None) != mod.__name__:
            continue
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        ref = f"{mod.__name__}.{name}"
        public = _public_name(mod, name, obj)
        if obj.__doc__:
            out.append((ref, public, inspect.cleandoc(obj.__doc__)))
        if inspect.isclass(obj):
            for attr, val in sorted(vars(obj).items()):
                if isinstance(val, (staticmethod, classmethod)):
                    val = val.__func__
                if attr.startswith("_") or not (inspect.isfunction(val) or isinstance(val, property)):
                    continue
                if val.__doc__:
                    out.append((f"{ref}.{attr}", f"{public}.{attr}", inspect.cleandoc(val.__doc__)))
    return out


def harvest(modules: str | list[str] = "pennylane", limit: int | None = None) -> list[Candidate]:
    """Every docstring example of the installed PennyLane under ``modules``, made self-contained."""
    prefixes = [m.strip() for m in modules.split(",")] if isinstance(modules, str) else modules
    found: list[Candidate] = []
    for mod in _walk(prefixes):
        for ref, public, doc in _docs(mod):
            examples = docstring_examples(doc)
            if not examples:
                continue
            summary = _clean_rst(doc.split("\n\n", 1)[0])
            blocks = [code for _, code in examples]
            for k, (before, _code) in enumerate(examples):
                parts = [f"`{public}`: {summary}"]
                if before and before != summary:
                    parts.append(before)
                found.append(Candidate(id=f"pennylane-docs/{ref}/{k}", source_ref=f"{ref}#{k}",
                                       instruction="\n\n".join(parts),
                                       code=_self_contained(blocks, k, mod)))
    if limit is not None:
        found = found[:limit]
    return found


# ---------------------------------------------------------------- verification and build

def verification_job(code: str, job_id: str, time_limit: float = DEFAULT_TIME_LIMIT) -> Any:
    """The sandbox job that verifies one example: it runs as a program on the installed
    PennyLane (CPU seconds ``time_limit`` decide; the wall clock, 3x, only stops programs that
    wait)."""
    from quantum_codegen_eval.execution import Job, Limits

    limits = Limits(wall_time=3 * time_limit, cpu_time=time_limit)
    return Job(code, id=job_id, limits=limits, env={"MPLBACKEND": "Agg"},
               preload=("numpy", "pennylane"))


def verification_status(result: Any, time_limit: float) -> tuple[str, str]:
    """(``passed`` / ``failed`` / ``timeout``, message) of a verification job's result."""
    if result.status == "ok":
        return "passed", ""
    if result.status == "timeout":
        return "timeout", f"over {time_limit:g} CPU s"
    exc = result.exception
    return "failed", (f"{exc.type}: {exc.message}"[:300] if exc
                      else f"{result.status} {result.exit_code}")


def verify(cands: list[Candidate], *, time_limit: float = DEFAULT_TIME_LIMIT,
           workers: int | None = None, sandbox: Any = None, progress: bool = False) -> None:
    """Run every candidate in the sandbox; sets ``status`` (passed/failed/timeout) and message."""
    from quantum_codegen_eval.execution import Sandbox

    jobs = [verification_job(c.code, str(i), time_limit) for i, c in enumerate(cands)]
    own = sandbox is None
    sb = Sandbox(workers=workers) if own else sandbox
    results: dict[int, Any] = {}
    try:
        stream = sb.map(jobs)
        if progress:
            from tqdm import tqdm

            stream = tqdm(stream, total=len(jobs), desc="verifying examples", unit="ex")
        for r in stream:
            results[int(r.id)] = r
    finally:
        if own:
            sb.close()
    for i, c in enumerate(cands):
        c.status, c.message = verification_status(results[i], time_limit)


def deduplicate(cands: list[Candidate]) -> list[Candidate]:
    """First member of each :func:`cluster_key` cluster, in order; sets cluster and its size."""
    sizes: dict[str, int] = {}
    for c in cands:
        c.cluster = cluster_key(c.code)
        sizes[c.cluster] = sizes.get(c.cluster, 0) + 1
    kept, seen = [], set()
    for c in cands:
        if c.cluster not in seen:
            seen.add(c.cluster)
            c.extra["cluster_size"] = sizes[c.cluster]
            kept.append(c)
    return kept


def _row(c: Candidate, version: str) -> dict[str, Any]:
    return {"id": c.id, "instruction": c.instruction, "code": c.code,
            "source_category": "official_docs", "pennylane_version": version,
            "verification_status": c.status, "dedup_cluster": c.cluster,
            "source_ref": c.source_ref, "cluster_size": c.extra.get("cluster_size", 1)}


def _features():
    import datasets

    return datasets.Features({k: datasets.Value(v) for k, v in FEATURES.items()})


def card_yaml(n: int, nbytes: int) -> str:
    header = {
        "pretty_name": "PennySynth (PennyLane instruction-code pairs)",
        "language": ["en"], "license": "apache-2.0", "task_categories": ["text-generation"],
        "tags": ["quantum-computing", "pennylane", "code-generation"],
        "configs": [{"config_name": "default", "default": True,
                     "data_files": [{"split": SPLIT, "path": "data/*.parquet"}]}],
        "dataset_info": {"features": _features()._to_yaml_list(),
                         "splits": [{"name": SPLIT, "num_bytes": nbytes, "num_examples": n}]},
    }
    return yaml_header(header)


def write_dataset(rows: list[dict[str, Any]], out: Path) -> None:
    import datasets

    folder = out / "data"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.parquet"):
        old.unlink()
    ds = datasets.Dataset.from_list(rows, features=_features())
    ds.to_parquet(str(folder / f"{SPLIT}-00000-of-00001.parquet"))
    (out / "README.md").write_text(card_yaml(len(rows), ds.data.nbytes) + card_body("pennysynth"),
                                   encoding="utf-8")


def _bool(value: Any) -> bool:
    return str(value).lower() in ("1", "true", "yes", "on")


def build(source: str | Path | None, out: str | Path, **options: Any) -> dict[str, Any]:
    """Write the dataset folder; returns counts (found, verified, failed, timeout, kept)."""
    known = {"modules", "limit", "time_limit", "workers", "keep_failed", "progress"}
    if set(options) - known:
        raise ValueError(f"pennysynth builder: unknown options {sorted(set(options) - known)}; "
                         f"known: {sorted(known)}")
    out = Path(out)
    if source not in (None, "pennylane"):
        from quantum_codegen_eval.benchmarks.pennysynth import load

        ds = load(data_dir=source)
        rows = [dict(r) for r in ds]
        for i, r in enumerate(rows):
            validate_row(r, f"{source} record {i}")
            r.setdefault("source_ref", "")
            r.setdefault("cluster_size", 1)
        write_dataset([{k: r.get(k) for k in FEATURES} for r in rows], out)
        return {"dataset": "pennysynth", "out": str(out), "source": str(source),
                "counts": {"kept": len(rows)}}
    import pennylane

    start = time.monotonic()
    limit = int(options["limit"]) if "limit" in options else None
    cands = harvest(options.get("modules", "pennylane"), limit)
    t_found = time.monotonic()
    verify(cands, time_limit=float(options.get("time_limit", DEFAULT_TIME_LIMIT)),
           workers=int(options["workers"]) if "workers" in options else None,
           progress=_bool(options.get("progress", "true")))
    t_verified = time.monotonic()
    counts = {"found": len(cands)}
    for s in ("passed", "failed", "timeout"):
        counts[s] = sum(c.status == s for c in cands)
    pool = cands if _bool(options.get("keep_failed", False)) else [
        c for c in cands if c.status == "passed"]
    kept = deduplicate(pool)
    counts["kept"] = len(kept)
    counts["duplicates_removed"] = len(pool) - len(kept)
    write_dataset([_row(c, pennylane.__version__) for c in kept], out)
    failures = {c.id: f"{c.status}: {c.message}" for c in cands if c.status != "passed"}
    (out / "build_report.json").write_text(json.dumps(
        {"counts": counts, "pennylane_version": pennylane.__version__,
         "modules": options.get("modules", "pennylane"), "failures": failures}, indent=1),
        encoding="utf-8")
    return {"dataset": "pennysynth", "out": str(out), "pennylane_version": pennylane.__version__,
            "counts": counts, "seconds": {"harvest": round(t_found - start, 1),
                                          "verify": round(t_verified - t_found, 1)}}
