"""The rooms of docs/architecture.md keep to their imports, and modules import no cycle.

Imports are read from the source (every ``import`` / ``from ... import``, function-level ones
included, ``if TYPE_CHECKING:`` blocks excluded), so a lazy import counts like any other.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PKG = "quantum_codegen_eval"
REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src" / PKG
#: top-level folders of the repository that ship inside the package (pyproject's package-dir):
#: the builders and the dataset cards come under the same rules as src/
SHIPPED = {"loaders": REPO / "loaders", "dataset_cards": REPO / "dataset_cards"}
QUANTUM = ("qiskit", "qiskit_aer", "pennylane", "cirq", "qiskit_ibm_runtime")
#: import cycles tolerated for now (none: keep it so). The test fails when a listed one is gone.
KNOWN_CYCLES: set[frozenset[str]] = set()


def _modules() -> dict[str, Path]:
    out = {}
    roots = [(SRC, ()), *((folder, (room,)) for room, folder in SHIPPED.items())]
    for root, prefix in roots:
        for path in root.rglob("*.py"):
            parts = [*prefix, *path.relative_to(root).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(name: str) -> tuple[set[str], set[str]]:
    """(modules of this package, top-level third-party modules) that ``name`` imports."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    skip = {id(n) for t in ast.walk(tree) if _type_checking(t) for n in ast.walk(t)}
    ours, theirs = set(), set()

    def add(dotted: str) -> None:
        if dotted == PKG or dotted.startswith(PKG + "."):
            rel = dotted[len(PKG) + 1:]
            while rel and rel not in MODULES:
                rel = rel.rpartition(".")[0]
            if rel:
                ours.add(rel)
        else:
            theirs.add(dotted.split(".")[0])

    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join([PKG, *base, *([node.module] if node.module else [])])
            else:
                mod = node.module or ""
            for alias in node.names:
                add(f"{mod}.{alias.name}")
    ours.discard(name)
    return ours, theirs


GRAPH = {name: _imports(name) for name in MODULES}


def _room(name: str) -> str:
    return name.split(".")[0]


#: room -> the rooms it may import (itself always)
ALLOWED = {
    "execution": {"cache"},
    "metrics": set(),
    "verdict": set(),
    "codeblocks": set(),
    "predictions": set(),
    "inputs": {"predictions"},  # other tools' files: readers ending in predictions' rows
    "cache": set(),
    "hints": set(),
    "report": {"publish_run"},  # Report.push_to_hub; publish_run reads report dicts only
    "judges": {"execution", "verdict", "codeblocks", "metrics", "formats", "cache"},
    "formats": set(),
    "scoring": {"metrics", "predictions", "verdict", "report"},
    "benchmarks": {"judges", "codeblocks", "formats", "verdict", "cache",
                   "upstream", "datasets_cache", "execution", "hints"},
    "upstream": {"cache"},
    "datasets_cache": {"cache", "upstream", "dataset_cards"},  # reads a card's YAML header
    # the builders: a benchmark's schema and judge-derived columns come from its benchmark
    # module (never from a judge directly); the API index reads the metric's index format
    "loaders": {"benchmarks", "dataset_cards", "upstream", "formats", "cache", "execution",
                "metrics", "publish"},
    "dataset_cards": set(),
    "provenance": set(),
    # comparison reads reports: never a judge, the sandbox or a benchmark
    "compare": {"report", "metrics", "verdict", "provenance"},
    # the viewer reads reports too, and uses compare for the paired comparison
    "view": {"compare", "report", "verdict", "provenance"},
    # RAG prompts: a benchmark's prompts and records, the corpus schema, the contamination rule
    "rag": {"benchmarks", "contamination"},
    # synthesis: seeds, checks (the builder's normalisation and jobs, hallucination, contamination)
    "synthesis": {"benchmarks", "rag", "codeblocks", "metrics", "execution", "loaders",
                  "contamination", "cluster", "neardup"},
    # code as normalised placeholder n-grams (contamination's and synthesis's one representation)
    "neardup": {"loaders"},
    "user_code": {"benchmarks"},  # UsageError
}


@pytest.mark.parametrize("room", sorted(ALLOWED))
def test_rooms_import_only_what_they_may(room):
    bad = {f"{name} -> {dep}" for name, (ours, _) in GRAPH.items() if _room(name) == room
           for dep in ours if _room(dep) not in ALLOWED[room] | {room}}
    assert not bad, sorted(bad)


def test_execution_knows_nothing_quantum():
    bad = {f"{name} -> {mod}" for name, (_, theirs) in GRAPH.items()
           if _room(name) == "execution" for mod in theirs if mod in QUANTUM}
    assert not bad, sorted(bad)


def test_metrics_are_importable_without_quantum_frameworks():
    bad = {f"{name} -> {mod}" for name, (_, theirs) in GRAPH.items()
           if _room(name) == "metrics" for mod in theirs if mod in QUANTUM}
    assert not bad, sorted(bad)


def _cycles() -> set[frozenset[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: set[frozenset[str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in GRAPH[v][0]:
            if w == "" or w not in GRAPH:  # the package itself: its lazy exports
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.add(frozenset(comp))

    for v in sorted(GRAPH):
        if v and v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    cycles = _cycles()
    assert cycles - KNOWN_CYCLES == set(), sorted(map(sorted, cycles - KNOWN_CYCLES))
    assert KNOWN_CYCLES <= cycles, f"fixed, remove from KNOWN_CYCLES: {KNOWN_CYCLES - cycles}"


#: what a job module (``judges/**/jobs/*.py``, shipped into a sandbox job by judges/_embed.py)
#: may import besides the standard library and other job modules (matplotlib and
#: qiskit_ibm_runtime: lazily, by the wire codec's Qiskit extension, for the figures and fake
#: backends a Qiskit HumanEval task returns)
JOB_THIRD_PARTY = {"numpy", "scipy", "qiskit", "qiskit_aer", "pennylane", "autograd", "networkx",
                   "matplotlib", "qiskit_ibm_runtime"}
JOB_MODULES = sorted(n for n in MODULES if ".jobs." in f".{n}." and n.startswith("judges."))


def _is_job_module(name: str) -> bool:
    return name in JOB_MODULES or name == "judges._bootstrap"


def test_there_are_job_modules():
    assert len(JOB_MODULES) > 20, JOB_MODULES


@pytest.mark.parametrize("name", JOB_MODULES)
def test_job_modules_import_only_job_modules_and_frameworks(name):
    import sys

    ours, theirs = GRAPH[name]
    bad = {d for d in ours if not _is_job_module(d)}
    bad |= {m for m in theirs if m not in JOB_THIRD_PARTY and m not in sys.stdlib_module_names
            and m != "__future__"}
    assert not bad, sorted(bad)


# --------------------------------------------------------------------------- programs in strings
#: statements that make a string a program: any of these, or two statements of any kind
_CODE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.For,
         ast.While, ast.If, ast.With, ast.Try)
#: strings of Python that are not programs: (module, the string) -> why
NOT_PROGRAMS = {
    ("judges.qcoder.check", "from quantum_codegen_eval.judges.qcoder.check import main\nmain()\n"):
        "the trusted check's entry point: it calls the linted module's main()",
    ("loaders.qcoder", "from qiskit import QuantumCircuit\n\ndef solve(n: int, m: int, S: list[int])"
     " -> QuantumCircuit:\n    qc = QuantumCircuit(n)\n    # Write your code here:\n\n    return qc"):
        "QPC002_B5's code template as the QCoder site renders it: statement text, never run",
}


def _is_program(text: str) -> bool:
    """Whether ``text`` (dedented) parses as Python of two statements or one that defines, imports
    or branches; a lone name or constant (a placeholder of an f-string, a word) does not count."""
    import textwrap

    if "\n" not in text.strip():
        return False
    try:
        body = ast.parse(textwrap.dedent(text)).body
    except (SyntaxError, ValueError):
        return False
    bare = [n for n in body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Name | ast.Constant)]
    return len(body) - len(bare) >= 2 or any(isinstance(n, _CODE) for n in body)


def _strings(tree: ast.AST):
    """(line, text) of every string literal but docstrings; an f-string with ``_x`` for its values."""
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "_x"
                                       for v in node.values)
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docs):
            yield node.lineno, node.value


def _programs_in_strings(name: str, source: str) -> list[str]:
    return [f"{name}:{line}: {text[:60]!r}" for line, text in _strings(ast.parse(source))
            if _is_program(text) and (name, text) not in NOT_PROGRAMS]


def test_no_module_holds_a_program_in_a_string():
    """Code that runs is a real module a linter reads (judges/*/jobs/, judges/qcoder/programs/)."""
    found = [hit for name, path in MODULES.items()
             for hit in _programs_in_strings(name, path.read_text(encoding="utf-8"))]
    assert not found, found


def test_each_string_that_is_not_a_program_is_still_there():
    for name, text in NOT_PROGRAMS:
        strings = [s for _, s in _strings(ast.parse(MODULES[name].read_text(encoding="utf-8")))]
        assert text in strings and _is_program(text), name


@pytest.mark.parametrize("source", [
    'H = "from qiskit import QuantumCircuit\\n"\nREF = H + "def solve():\\n    return 1\\n"\n',
    'GATES = """    qc.cx({a}, {b})\n    qc.h({a})\n"""\n',
    "def ref(name):\n    return f'''\\ndef {name}(n):\n    return n\\n'''\n",
    'WRONG = "for q in range(n):\\n    qc.h(q)\\n"\n',
])
def test_a_program_in_a_string_is_found(source):
    assert _programs_in_strings("m", source)


@pytest.mark.parametrize("source", [
    '"""def f():\n    return 1\n"""\n',  # a docstring is documentation
    'MSG = "the judge ran\\nand the program failed"\n',
    "MD = f'\\n\\n### Your answer (attempt {1})\\n{2}\\n'\n",
    'ONE = "qc.h(0)\\n"\n',
])
def test_text_that_is_not_a_program_is_not_found(source):
    assert not _programs_in_strings("m", source)


def test_the_download_layer_names_no_benchmark():
    """upstream.py knows archives, commits and files: no benchmark's name appears in it."""
    from quantum_codegen_eval.benchmarks.base import names

    text = (SRC / "upstream.py").read_text(encoding="utf-8")
    assert not [n for n in names() if re.search(rf"\b{re.escape(n)}\b", text)]
