"""The QCoder specs' programs are modules (``judges/qcoder/programs/``): each one is a program a
spec gives the judge, and ``specs.base.program`` reads it into one file after the reference
libraries it imports. That the references get AC and the wrong ones WA is test_qcoder_specs.py."""

from __future__ import annotations

import ast
import builtins
import pkgutil

import pytest

from quantum_codegen_eval.judges.qcoder import programs
from quantum_codegen_eval.judges.qcoder.specs import all_specs
from quantum_codegen_eval.judges.qcoder.specs.base import _parts, library, program

NAMES = sorted(f"{contest.name}.{m.name}"
               for contest in pkgutil.iter_modules(programs.__path__)
               for m in pkgutil.iter_modules([f"{programs.__path__[0]}/{contest.name}"])
               if not m.name.startswith("_"))  # a private module is a part, not a program


def _given(spec) -> list[str]:
    return [spec.reference, *spec.wrong,
            *(v for k, v in spec.extra.items() if k in ("uge", "dle"))]


def test_every_program_a_spec_gives_the_judge_is_a_module_and_every_module_is_used():
    texts = {program(name): name for name in NAMES}
    assert len(texts) == len(NAMES) == 111
    given = {t for spec in all_specs().values() for t in _given(spec)}
    assert given <= set(texts), "a spec program that no module of programs/ makes"
    assert set(texts) <= given, sorted(texts[t] for t in set(texts) - given)


@pytest.mark.parametrize("name", NAMES)
def test_a_program_is_one_file_with_one_solve(name):
    text = program(name)
    tree = ast.parse(text)
    assert [n.name for n in tree.body if isinstance(n, ast.FunctionDef)].count("solve") == 1
    assert not any(isinstance(n, ast.ImportFrom) and n.level for n in tree.body)
    assert not (isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant))
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    bound = {a.asname or a.name.split(".")[0] for n in tree.body
             if isinstance(n, ast.Import | ast.ImportFrom) for a in n.names}
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    local = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    local |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments)
              for a in [*n.posonlyargs, *n.args, *n.kwonlyargs]}
    assert used <= defined | bound | local | set(dir(builtins)), name


def test_the_libraries_come_first_in_the_order_they_import_each_other():
    assert _parts("programs.qpc002.b6") == ["jobs.ref_lib", "jobs.ref_adder", "programs.qpc002.b6"]
    assert _parts("programs.qpc003.ex2") == ["jobs.ref_lib", "jobs.ref_w", "programs.qpc003.ex2"]
    assert _parts("programs.qpc001.a1") == ["programs.qpc001.a1"]
    # a part of the programs package itself: the flawed W state two wrong solutions share
    assert _parts("programs.qpc003.a4_wrong") == ["programs.qpc003._w_quarter",
                                                  "programs.qpc003.a4_wrong"]
    text = program("qpc002.b6")
    assert text.index("def qft_noswap") < text.index("def _phases") < text.index("def solve")
    assert text.count("import math") == 1  # each import once, where it is first made


def test_a_library_part_may_import_only_an_earlier_part():
    with pytest.raises(ValueError, match="ref_adder imports .ref_lib, not an earlier part"):
        library("ref_adder")
    with pytest.raises(ImportError, match="no QCoder program module programs.qpc001.nothing"):
        program("qpc001.nothing")


def test_a_wrong_solution_names_its_mistake():
    wrong = [n for n in NAMES if n.endswith("_wrong")]
    assert len(wrong) == 52
    for name in wrong:
        doc = ast.get_docstring(ast.parse(_source(name)))
        assert "its one mistake: " in doc.lower(), name


def _source(name: str) -> str:
    from pathlib import Path

    return (Path(programs.__path__[0]) / f"{name.replace('.', '/')}.py").read_text()
