"""Hallucination check: which PennyLane names in a piece of code exist in which release.

Every reference to PennyLane (``qml.RX``, ``pl.qchem.molecular_hamiltonian``, a name imported
with ``from pennylane import X``) is looked up in the shipped API index
(``metrics/data/pennylane_api_index.json.xz``, built by ``loaders/pennylane_api_index.py``); no
PennyLane needs to be installed. Device names (``qml.device("default.qubits")``) are checked
against the devices each release ships. Code is parsed with :mod:`ast`; code that does not parse
raises :class:`CodeParseError` (never an empty "no hallucinations" list), or, with
``recover=True``, yields the references tree-sitter's error-tolerant parse recovers, marked
``recovered``. See docs/metrics/hallucination.md.

>>> code = '''import pennylane as pl
... pl.QubitStateVector([1, 0], wires=0)
... pl.RX(0.1, wires=0)
... pl.FancyGate(wires=0)'''
>>> found = find_hallucinations(code, "0.45")
>>> [(f.name, f.line, f.status) for f in found]
[('pl.QubitStateVector', 2, 'removed'), ('pl.RX', 3, 'ok'), ('pl.FancyGate', 4, 'hallucinated')]
>>> found.target, found.signature.split("|")[:2]
('0.45.1', ['find_hallucinations', 'pennylane:0.45.1'])
>>> find_hallucinations("def f(:")
Traceback (most recent call last):
...
quantum_codegen_eval.metrics.hallucination.CodeParseError: line 1: invalid syntax
"""

from __future__ import annotations

import ast
import bisect
import fnmatch
import json
import lzma
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Literal, overload

from .results import MappingResult
from .signature import make_signature

__all__ = ["CodeParseError", "Finding", "HallucinationRate", "find_hallucinations",
           "hallucination_rate", "index_versions", "load_index"]

Status = Literal["ok", "hallucinated", "removed", "too_new", "private"]
INDEX_FILE = "pennylane_api_index.json.xz"
#: longer code is not checked (:class:`CodeParseError`): ``ast`` needs ~500 bytes per byte of
#: a pathological line; docs/metrics/hallucination.md
MAX_CHARS = 200_000


class CodeParseError(ValueError):
    """The code is not valid Python, so its PennyLane names cannot be checked."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Finding(MappingResult):
    """One reference to a PennyLane name.

    ``name`` is the dotted name as written (``pl.QubitStateVector``), ``path`` its resolved
    ``pennylane.`` path, ``versions`` the indexed releases in which the name exists and
    ``target`` the release it was checked against. ``note`` says how an existing name exists
    when it is not a plain public attribute: ``lazy`` (served by a module ``__getattr__``, may
    need an optional dependency), ``extras`` (in a module whose import needs an optional
    dependency, e.g. ``qml.labs``), ``plugin`` (a device the caller named). ``recovered`` marks
    references found by the error-tolerant parse of code that does not parse. Device names
    are findings too: ``path`` is ``device:<name>``.
    """

    name: str
    path: str
    line: int
    column: int
    status: Status
    versions: tuple[str, ...]
    target: str
    note: str = ""
    recovered: bool = False


@dataclass(frozen=True)
class HallucinationCheck(Sequence):
    """The findings of one :func:`find_hallucinations` call, in source order, with the release
    checked against (``target``), whether they come from the error-tolerant parse
    (``recovered``) and the signature. It is the sequence of its findings (``for f in result``,
    ``result[0]``, ``len(result)``), as the list it replaces was; ``as_dict()`` is JSON-ready.
    """

    findings: tuple[Finding, ...]
    target: str
    recovered: bool
    signature: str

    @overload
    def __getitem__(self, i: int) -> Finding: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Finding, ...]: ...
    def __getitem__(self, i: int | slice) -> Finding | tuple[Finding, ...]:
        return self.findings[i]

    def __len__(self) -> int:
        return len(self.findings)

    def as_dict(self) -> dict[str, Any]:
        return {"findings": [f.as_dict() for f in self.findings], "target": self.target,
                "recovered": self.recovered, "signature": self.signature}


# ------------------------------------------------------------------------------------------
# The index
# ------------------------------------------------------------------------------------------

@lru_cache(maxsize=4)
def load_index(path: str | None = None) -> dict:
    """The API index (the shipped one by default); see ``loaders/pennylane_api_index.py``."""
    if path is None:
        data = resources.files(__package__).joinpath("data").joinpath(INDEX_FILE).read_bytes()
    else:
        with open(path, "rb") as fh:
            data = fh.read()
    if data[:6] == b"\xfd7zXZ\x00":
        data = lzma.decompress(data)
    index = json.loads(data)
    if not str(index.get("format", "")).startswith("qce-pennylane-api-index/"):
        raise ValueError(f"{path or INDEX_FILE}: not a PennyLane API index")
    return index


def index_versions(index: dict | None = None) -> list[str]:
    """The PennyLane releases in the index, oldest first."""
    return list((index or load_index())["versions"])


def _vkey(version: str) -> tuple[int, ...]:
    parts = []
    for p in version.split(".")[:3]:
        digits = "".join(ch for ch in p if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts + [0] * (3 - len(parts)))


def resolve_target(version: str | None, index: dict | None = None) -> int:
    """Position of the release to check against: the newest indexed release not newer than
    ``version``, compared on the parts given (``"0.45"`` matches ``0.45.1``; ``"0.33"`` gives
    ``0.31.0`` when 0.32 and 0.33 are not indexed); default the newest.

    >>> index_versions()[resolve_target("0.45")]
    '0.45.1'
    """
    versions = index_versions(index)
    if version is None:
        return len(versions) - 1
    given = [p for p in str(version).split(".") if p][:3]
    want = _vkey(str(version))[:len(given)]
    best = None
    for i, v in enumerate(versions):
        if _vkey(v)[:len(given)] <= want:
            best = i
    if best is None:
        raise ValueError(f"PennyLane {version} is older than the oldest indexed release "
                         f"{versions[0]}; indexed: {', '.join(versions)}")
    return best


def _node(index: dict, path: str) -> list | None:
    node: list | None = None
    children = index["tree"]
    for part in path.split(".")[1:]:
        node = children.get(part)
        if node is None:
            return None
        children = node[2] if len(node) > 2 else {}
    return node if node is not None else [-1, "module", index["tree"]]


_BEYOND = ("other", "attr", "lazy", "private", "extras-open")


def _supplement_node(index: dict, path: str) -> list | None:
    node: list | None = None
    children = index.get("supplement", {}).get("tree", {})
    for part in path.split(".")[1:]:
        node = children.get(part)
        if node is None:
            return None
        children = node[2] if len(node) > 2 else {}
    return node


def _resolve(index: dict, parts: list[str], bit: int, supplement: bool = True) -> str | None:
    """How ``pennylane.<parts>`` exists in release ``bit``, following aliases: ``ok``,
    ``lazy``, ``extras`` or ``private``; None when it does not exist there."""
    return _walk(index, parts, bit, supplement)[0]


def home_path(index: dict, dotted: str, bit: int) -> str | None:
    """The path where the walk listed the module or class ``dotted`` in release ``bit`` (its
    home: ``pennylane.ops.qubit.RX`` -> ``pennylane.RX``), or None."""
    note, path = _walk(index, dotted.split(".")[1:], bit, False)
    return path if note is not None else None


def _walk(index: dict, parts: list[str], bit: int, supplement: bool) -> tuple[str | None, str]:
    m = 1 << bit
    path = "pennylane"
    note = "ok"
    node: list = [-1, "module", index["tree"]]
    for i, part in enumerate(parts):
        kind = node[1]
        if kind in _BEYOND or (kind == "extras" and len(node) <= 2):
            return note, path  # attributes of functions, instances, ... are beyond the index
        children = node[2] if len(node) > 2 else {}
        child = children.get(part)
        if child is None or not child[0] & m:
            fb = index.get("fallbacks", {}).get(path, {})
            for target, fmask in fb.items():
                if fmask & m and _external_has(index, target[4:], part, m):
                    return note, path
            extra = _supplement_node(index, f"{path}.{part}") if supplement else None
            if extra is not None and extra[0] & m:
                note = "extras" if extra[1].startswith("extras") else extra[1]
                path = f"{path}.{part}"
                node = extra
                continue
            if part.startswith("_") and kind == "class" and supplement:
                return "private", path  # private class attributes are not listed: not invented
            return None, path
        path = f"{path}.{part}"
        for target, amask in index["aliases"].get(path, {}).items():
            if not amask & m:
                continue
            if target.startswith("ext:"):
                rest = parts[i + 1:]
                ok = not rest or _external_has(index, target[4:], rest[0], m)
                return (note if ok else None), path
            home = _node(index, target)
            if home is not None:
                child = home
                path = target
            break
        node = child
    return note, path


def _exists(index: dict, parts: list[str], bit: int, supplement: bool = True) -> bool:
    """Whether ``pennylane.<parts>`` exists in release ``bit``."""
    return _resolve(index, parts, bit, supplement) is not None


def _external_has(index: dict, module: str, attr: str, m: int) -> bool:
    return bool(index["external"].get(module, {}).get(attr, 0) & m)


def _status(mask: int, bit: int) -> Status:
    if mask >> bit & 1:
        return "ok"
    if mask == 0:
        return "hallucinated"
    return "removed" if mask & ((1 << bit) - 1) else "too_new"


# ------------------------------------------------------------------------------------------
# Finding references in code
# ------------------------------------------------------------------------------------------

def _dotted(node: ast.AST) -> list[str] | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def _binds_qml(tree: ast.AST) -> bool:
    """Whether anything but ``import pennylane as qml`` binds the name ``qml``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "qml" and not isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, ast.arg) and node.arg == "qml":
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and (
                node.name == "qml"):
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                bound = a.asname or a.name.split(".")[0]
                if bound == "qml" and not (isinstance(node, ast.Import) and a.name == "pennylane"):
                    return True
    return False


def _references(tree: ast.AST) -> list[tuple[str, str, int, int]]:
    """(name as written, pennylane path, line, column) for every PennyLane reference, and
    (device name, ``device:<name>``, line, column) for every ``qml.device("<name>", ...)``."""
    aliases: dict[str, str] = {}  # local name -> pennylane path
    refs: list[tuple[str, str, int, int]] = []
    # Imports first (in source order), so a use above its import still resolves.
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] != "pennylane":
                    continue
                if a.asname:
                    aliases[a.asname] = a.name
                else:
                    aliases["pennylane"] = "pennylane"
                if a.name != "pennylane":
                    refs.append((a.name, a.name, node.lineno, node.col_offset))
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if node.module.split(".")[0] != "pennylane":
                continue
            if node.module != "pennylane":
                refs.append((node.module, node.module, node.lineno, node.col_offset))
            for a in node.names:
                if a.name == "*":
                    continue
                full = f"{node.module}.{a.name}"
                aliases[a.asname or a.name] = full
                refs.append((full, full, node.lineno, node.col_offset))
    if "qml" not in aliases and not _binds_qml(tree):
        aliases["qml"] = "pennylane"  # the community convention: a bare qml is PennyLane
    seen_chain: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and id(node) not in seen_chain:
            parts = _dotted(node)
            inner = node.value
            while isinstance(inner, ast.Attribute):
                seen_chain.add(id(inner))
                inner = inner.value
            if parts and parts[0] in aliases:
                seen_chain.add(id(inner))
                base = aliases[parts[0]]
                refs.append((".".join(parts), ".".join([base, *parts[1:]]), node.lineno,
                             node.col_offset))
        elif (isinstance(node, ast.Name) and id(node) not in seen_chain
              and isinstance(node.ctx, ast.Load) and node.id in aliases
              and aliases[node.id] != "pennylane" and node.id != aliases[node.id]):
            refs.append((node.id, aliases[node.id], node.lineno, node.col_offset))
        elif isinstance(node, ast.Call) and node.args:
            parts = _dotted(node.func)
            arg = node.args[0]
            if (parts and parts[0] in aliases
                    and ".".join([aliases[parts[0]], *parts[1:]]) == "pennylane.device"
                    and isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                refs.append((arg.value, f"device:{arg.value}", arg.lineno, arg.col_offset))
    return sorted(refs, key=lambda r: (r[2], r[3]))


def _ts_references(code: str) -> list[tuple[str, str, int, int]]:
    """:func:`_references` for code that ``ast`` rejects: imports (and what binds ``qml``) from
    tree-sitter's error-tolerant parse, then attribute chains and ``qml.device("...")`` calls
    from the tokens."""
    from .codebleu import _parser, encodable

    code = encodable(code)
    root = _parser().parse(code.encode("utf8")).root_node
    data = code.encode("utf8")

    def text(n) -> str:
        return data[n.start_byte:n.end_byte].decode("utf8", errors="replace")

    def pos(n) -> tuple[int, int]:
        return n.start_point[0] + 1, n.start_point[1]

    nodes = []
    stack = [root]
    while stack:
        n = stack.pop()
        nodes.append(n)
        stack.extend(reversed(n.children))
    aliases: dict[str, str] = {}
    refs: list[tuple[str, str, int, int]] = []
    bound_qml = False
    for n in nodes:
        if n.type == "import_statement":
            for c in n.named_children:
                name = text(c.child_by_field_name("name") if c.type == "aliased_import" else c)
                alias = c.child_by_field_name("alias") if c.type == "aliased_import" else None
                if name.split(".")[0] != "pennylane":
                    bound_qml |= alias is not None and text(alias) == "qml"
                    continue
                aliases[text(alias) if alias else "pennylane"] = name if alias else "pennylane"
                if name != "pennylane":
                    refs.append((name, name, *pos(n)))
        elif n.type == "import_from_statement":
            mod = n.child_by_field_name("module_name")
            if mod is None or mod.type != "dotted_name":
                continue
            module = text(mod)
            names = [c for c in n.children_by_field_name("name")]
            if module.split(".")[0] != "pennylane":
                bound_qml |= any(text(c).split()[-1] == "qml" for c in names)
                continue
            if module != "pennylane":
                refs.append((module, module, *pos(n)))
            for c in names:
                name = text(c.child_by_field_name("name") if c.type == "aliased_import" else c)
                alias = c.child_by_field_name("alias") if c.type == "aliased_import" else None
                aliases[text(alias) if alias else name] = f"{module}.{name}"
                refs.append((f"{module}.{name}", f"{module}.{name}", *pos(n)))
        elif n.type in ("assignment", "for_statement") and n.child_by_field_name("left"):
            bound_qml |= "qml" in text(n.child_by_field_name("left")).replace(",", " ").split()
    if "qml" not in aliases and not bound_qml:
        aliases["qml"] = "pennylane"
    # Below a parse error tree-sitter's structure is a guess (``qml.RX(..)\n qml.H(..)`` may come
    # back as one chained call), so references are read from the tokens: dotted names whose
    # head is a PennyLane alias, outside import lines, strings and comments.
    from ._codebleu_quantum import _TOKEN_RE

    import_lines = {n.start_point[0] for n in nodes
                    if n.type in ("import_statement", "import_from_statement")}
    line_starts = [0] + [m.end() for m in re.finditer("\n", code)]  # rows as tree-sitter counts
    toks = [(m.lastgroup or "o", m.group(0), m.start()) for m in _TOKEN_RE.finditer(code)]
    toks = [t for t in toks if t[0] != "c"]
    for i, (kind, tok, start) in enumerate(toks):
        if kind != "d":
            continue
        row = bisect.bisect_right(line_starts, start) - 1
        parts = [p.strip() for p in tok.split(".")]
        if row in import_lines or parts[0] not in aliases or (i and toks[i - 1][1] == "."):
            continue
        path = ".".join([aliases[parts[0]], *parts[1:]])
        if len(parts) > 1 or aliases[parts[0]] != "pennylane":
            refs.append((".".join(parts), path, row + 1, start - line_starts[row]))
        if (path == "pennylane.device" and i + 2 < len(toks) and toks[i + 1][1] == "("
                and toks[i + 2][0] == "s"):
            try:
                value = ast.literal_eval(toks[i + 2][1])
            except (ValueError, SyntaxError):
                continue
            if isinstance(value, str):
                srow = bisect.bisect_right(line_starts, toks[i + 2][2]) - 1
                refs.append((value, f"device:{value}", srow + 1,
                             toks[i + 2][2] - line_starts[srow]))
    return sorted(set(refs), key=lambda r: (r[2], r[3], r[0]))


def _parse(code: str) -> ast.AST:
    try:
        return ast.parse(code)
    except SyntaxError as exc:
        raise CodeParseError(f"line {exc.lineno}: {exc.msg}", exc.lineno) from None
    except ValueError as exc:  # null bytes, lone surrogates
        raise CodeParseError(str(exc)) from None
    except (RecursionError, MemoryError) as exc:  # a 10**4-link attribute chain, a huge line
        raise CodeParseError(f"too deeply nested or too large to parse ({type(exc).__name__})"
                             ) from None


def find_hallucinations(code: str, pennylane_version: str | None = None, *,
                        index: dict | None = None, devices: Iterable[str] = (),
                        recover: bool = False) -> HallucinationCheck:
    """One :class:`Finding` per PennyLane reference in ``code``, in source order, as a
    :class:`HallucinationCheck` (a sequence of findings with ``target`` and ``signature``).

    ``pennylane_version`` is the release to check against (default: the newest indexed; a
    release between two indexed ones is checked against the older one). Status: ``ok`` (exists
    in the target), ``private`` (a real ``_``-prefixed name, or one below a class, whose private
    attributes are not listed: not a hallucination), ``hallucinated`` (in no indexed release),
    ``removed`` (only in releases older than the target) or ``too_new`` (only in newer ones).
    Device names (``qml.device("default.qubit")``) are checked against the devices shipped with
    each release (PennyLane and pennylane-lightning); ``devices`` adds the names (or ``fnmatch``
    patterns, ``"qiskit.*"``) of plugins the caller has. Code that does not parse raises
    :class:`CodeParseError`, unless ``recover=True``: then the references found by tree-sitter's
    error-tolerant parse are returned, each with ``recovered=True``.
    """
    if not isinstance(code, str):
        raise TypeError(f"find_hallucinations: code must be a str, got {type(code).__name__}")
    index = index or load_index()
    bit = resolve_target(pennylane_version, index)
    versions = index["versions"]
    if len(code) > MAX_CHARS:
        raise CodeParseError(f"code too long to check: {len(code)} characters > {MAX_CHARS}")
    if code.startswith("\ufeff"):
        code = code[1:]  # a byte order mark: Python skips it in a source file
    plugins = tuple(devices)
    try:
        refs, recovered = _references(_parse(code)), False
    except CodeParseError:
        if not recover:
            raise
        refs, recovered = _ts_references(code), True
    known_devices = index.get("supplement", {}).get("devices", {})
    out = []
    for name, path, line, col in refs:
        note = ""
        if path.startswith("device:"):
            device = path[len("device:"):]
            if any(fnmatch.fnmatchcase(device, pat) for pat in plugins):
                mask, note = (1 << len(versions)) - 1, "plugin"
            else:
                mask = known_devices.get(device, 0)
            status = _status(mask, bit)
        else:
            parts = path.split(".")[1:]
            how = [_resolve(index, parts, b) for b in range(len(versions))]
            mask = sum(1 << b for b, h in enumerate(how) if h is not None)
            status = _status(mask, bit)
            if status == "ok" and how[bit] == "private":
                status = "private"
            elif status == "ok" and how[bit] in ("lazy", "extras"):
                note = how[bit]
        out.append(Finding(name=name, path=path, line=line, column=col, status=status,
                           versions=tuple(v for b, v in enumerate(versions) if mask >> b & 1),
                           target=versions[bit], note=note, recovered=recovered))
    sig = make_signature("find_hallucinations", pennylane=versions[bit],
                         index=",".join(versions), devices=",".join(plugins) or "none",
                         recover="yes" if recover else "no")
    return HallucinationCheck(findings=tuple(out), target=versions[bit], recovered=recovered,
                              signature=sig)


@dataclass(frozen=True)
class HallucinationRate(MappingResult):
    """Share of solutions with at least one hallucinated name (see :func:`hallucination_rate`)."""

    rate: float
    n_solutions: int
    n_checked: int
    n_hallucinated: int
    n_removed: int
    n_too_new: int
    n_unparsable: int
    per_solution: tuple[str, ...]
    signature: str


def hallucination_rate(codes: Iterable[str], pennylane_version: str | None = None, *,
                       unparsable: Literal["exclude", "hallucinated", "clean",
                                           "recover"] = "exclude",
                       index: dict | None = None) -> HallucinationRate:
    """Share of solutions with >= 1 ``hallucinated`` name.

    ``unparsable`` says how code that does not parse counts: ``exclude`` (default: left out of
    the denominator, counted in ``n_unparsable``), ``hallucinated``, ``clean``, or ``recover``
    (checked on the references tree-sitter recovers; still counted in ``n_unparsable``).
    ``per_solution`` holds ``hallucinated``, ``clean`` or ``unparsable`` for each solution;
    ``n_removed``/``n_too_new`` count solutions with such a name (and none hallucinated).

    >>> r = hallucination_rate(["import pennylane as qml\\nqml.Hadamard(0)",
    ...                         "import pennylane as qml\\nqml.Hadamrd(0)", "def f(:"])
    >>> (r.rate, r.n_checked, r.per_solution)
    (0.5, 2, ('clean', 'hallucinated', 'unparsable'))
    """
    if unparsable not in ("exclude", "hallucinated", "clean", "recover"):
        raise ValueError("unparsable must be exclude, hallucinated, clean or recover, got "
                         f"{unparsable!r}")
    index = index or load_index()
    target = index["versions"][resolve_target(pennylane_version, index)]
    per, n_h, n_r, n_t, n_u = [], 0, 0, 0, 0
    for i, code in enumerate(codes):
        if not isinstance(code, str):
            raise TypeError(f"hallucination_rate: solution {i} is a {type(code).__name__}, "
                            "not a str")
        try:
            statuses = {f.status for f in find_hallucinations(code, target, index=index)}
        except CodeParseError:
            n_u += 1
            if unparsable != "recover":
                per.append("unparsable")
                continue
            statuses = {f.status for f in find_hallucinations(code, target, index=index,
                                                               recover=True)}
        if "hallucinated" in statuses:
            per.append("hallucinated")
            n_h += 1
        else:
            per.append("clean")
            n_r += "removed" in statuses
            n_t += "too_new" in statuses
    checked = len(per) - (n_u if unparsable == "exclude" else 0)
    hits = n_h + (n_u if unparsable == "hallucinated" else 0)
    sig = make_signature("hallucination_rate", pennylane=target, unparsable=unparsable,
                         index=",".join(index["versions"]))
    return HallucinationRate(rate=hits / checked if checked else 0.0, n_solutions=len(per),
                             n_checked=checked, n_hallucinated=n_h, n_removed=n_r,
                             n_too_new=n_t, n_unparsable=n_u, per_solution=tuple(per),
                             signature=sig)
