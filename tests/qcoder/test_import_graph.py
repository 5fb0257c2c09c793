"""judges/ has no import cycles (module level or inside functions), and each QCoder module imports
on its own in a fresh interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import quantum_codegen_eval

PKG = Path(quantum_codegen_eval.__file__).parent
ROOT = "quantum_codegen_eval"


def _modules(folder: Path) -> dict[str, Path]:
    out = {}
    for path in folder.rglob("*.py"):
        parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Modules of ``known`` that ``name`` imports anywhere in its body."""
    is_pkg = path.name == "__init__.py"
    package = name if is_pkg else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(max(node.level - 1, 0)):
                base = base.rpartition(".")[0]
            mod = (f"{base}.{node.module}" if node.module else base) if node.level else node.module
            targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod for a in node.names]
        else:
            continue
        out |= {t for t in targets if t in known and t != name}
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state and (found := visit(m)):
                return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state and (found := visit(n)):
            return found
    return None


def test_no_import_cycle_in_judges():
    mods = _modules(PKG / "judges")
    graph = {n: _imports(n, p, set(mods)) for n, p in mods.items()}
    assert f"{ROOT}.judges.qcoder.specs.qpc001" in graph  # the walk sees the contest modules
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_cycle_detector_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_specs_are_discovered_not_listed():
    from quantum_codegen_eval.judges.qcoder.specs import contest_modules

    on_disk = sorted(p.stem for p in (PKG / "judges/qcoder/specs").glob("qpc*.py"))
    assert contest_modules() == on_disk == ["qpc001", "qpc002", "qpc003", "qpc004", "qpc005"]


@pytest.mark.parametrize("module", sorted(_modules(PKG / "judges" / "qcoder")))
def test_module_imports_alone(module):
    r = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]


def test_harness_ships_only_its_job_modules():
    """The untrusted stage's program is the harness, the circuit-tree writer and the shared
    ``ran_out_of_memory`` test and link frames, never the judge (specs, references, hidden oracles)."""
    from quantum_codegen_eval.judges import _embed
    from quantum_codegen_eval.judges.qcoder.jobs import harness

    assert _embed.needed(harness.__name__) == (
        f"{ROOT}.judges.jobs.frames", f"{ROOT}.judges.jobs.memory",
        f"{ROOT}.judges.qcoder.jobs.circuit_tree",
        f"{ROOT}.judges.qcoder.jobs.harness")
    trees = [ast.parse(_embed._source(m)) for m in _embed.needed(harness.__name__)]
    names = {n.module or "" for t in trees for n in ast.walk(t)
             if isinstance(n, ast.ImportFrom) and not n.level}
    names |= {a.name for t in trees for n in ast.walk(t) if isinstance(n, ast.Import)
              for a in n.names}
    assert names and not any(n.startswith(ROOT) for n in names), names
