"""The limits of a job become TLE / MLE in one place, ``judges.base.limit_status``, which
every judge calls (issue 35): a judge that compares a run's status with ``"timeout"`` /
``"memory"`` (or an exception's name with ``"MemoryError"``) maps limits itself, and fails
here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import quantum_codegen_eval.judges as judges_pkg

JUDGES = Path(judges_pkg.__file__).parent
LIMIT_WORDS = {"timeout", "memory", "MemoryError"}


def _own_mappings(path: Path) -> list[str]:
    """Where ``path`` compares something with a limit word or maps one to TLE / MLE."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        consts: list[ast.AST] = []
        if isinstance(node, ast.Compare):
            for side in [node.left, *node.comparators]:
                consts += [side, *(getattr(side, "elts", None) or [])]
        elif isinstance(node, ast.Dict) and any(
                isinstance(v, ast.Constant) and v.value in ("TLE", "MLE") for v in node.values):
            consts += [k for k in node.keys if k is not None]
        if any(isinstance(c, ast.Constant) and c.value in LIMIT_WORDS for c in consts):
            found.append(f"{path.relative_to(JUDGES)}:{node.lineno}")
    return found


def _judge_files(name: str) -> list[Path]:
    return sorted(p for p in (JUDGES / name).glob("*.py"))


@pytest.mark.parametrize("name", ["qhack", "qcoder"])
def test_no_judge_maps_limits_itself(name):
    assert [hit for p in _judge_files(name) for hit in _own_mappings(p)] == []


def test_the_function_test_judges_map_limits_once():
    assert [hit for p in _judge_files("function_test") for hit in _own_mappings(p)] == []


def test_the_mapping():
    from quantum_codegen_eval.judges.base import limit_status

    assert limit_status("timeout") == "TLE"
    assert limit_status("memory") == "MLE"
    assert limit_status("error", memory_error=True) == "MLE"
    assert limit_status("error") is None and limit_status("ok") is None


def test_the_scan_sees_a_judge_that_maps_limits(tmp_path):
    bad = tmp_path / "judge.py"
    bad.write_text('s = {"timeout": "TLE"}.get(r.status)\nif r.status == "memory":\n    pass\n')
    assert len(_own_mappings_at(bad, tmp_path)) == 2


def _own_mappings_at(path: Path, root: Path) -> list[str]:
    global JUDGES
    saved, JUDGES = JUDGES, root
    try:
        return _own_mappings(path)
    finally:
        JUDGES = saved


def test_the_wall_clock_factor_is_defined_once():
    """Every judge's wall-clock backstop is ``judges.base.wall_limit`` of its CPU limit: no
    other judge module defines a factor of its own."""
    from quantum_codegen_eval.judges.base import WALL_FACTOR, wall_limit

    own = []
    for path in JUDGES.rglob("*.py"):
        if path.name == "base.py" and path.parent == JUDGES:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else []
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            if any("WALL" in n and "FACTOR" in n for n in names):
                own.append(f"{path.relative_to(JUDGES)}:{node.lineno}")
    assert own == []
    assert wall_limit(10.0) == 10.0 * WALL_FACTOR and wall_limit(1.0, 30.0) == WALL_FACTOR + 30.0
