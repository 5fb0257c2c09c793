"""The package metadata: the packages found (not listed), the wheel's files, the citation file,
the CLI shape."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from pyproject_meta import pyproject
from wheels import build_wheel

REPO = Path(__file__).resolve().parents[2]


def _packages_on_disk() -> set[str]:
    """Every folder of the package (with code or shipped data), as a dotted name."""
    found = set()
    for top, prefix in ((REPO / "src" / "quantum_codegen_eval", ()),
                        (REPO / "loaders", ("loaders",)),
                        (REPO / "dataset_cards", ("dataset_cards",))):
        for folder in [top, *top.rglob("*")]:
            if folder.is_dir() and folder.name != "__pycache__" and any(
                    f.is_file() and f.suffix != ".pyc" for f in folder.iterdir()):
                found.add(".".join(("quantum_codegen_eval", *prefix,
                                    *folder.relative_to(top).parts)))
    return found


def _setup_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("qce_setup", REPO / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_found_packages_match_the_tree(monkeypatch):
    """setup.py finds every folder (no list kept by hand): a new benchmark's folders ship."""
    monkeypatch.chdir(REPO)
    meta = pyproject()
    assert "packages" not in meta["tool"]["setuptools"]
    found = set(_setup_script().packages())
    assert found >= _packages_on_disk()
    # the rest are folders holding only packages (e.g. data/), which ship nothing themselves
    assert all(any(p.startswith(f + ".") for p in _packages_on_disk())
               for f in found - _packages_on_disk())


def _shipped_files() -> set[str]:
    """What the wheel must hold: every file of the package's folders (less caches)."""
    out = set()
    for top, prefix in ((REPO / "src" / "quantum_codegen_eval", "quantum_codegen_eval"),
                        (REPO / "loaders", "quantum_codegen_eval/loaders"),
                        (REPO / "dataset_cards", "quantum_codegen_eval/dataset_cards")):
        for path in top.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                out.add(f"{prefix}/{path.relative_to(top).as_posix()}")
    return out


@pytest.mark.slow
def test_the_wheel_holds_exactly_the_package_folders(tmp_path):
    """The built wheel ships every file of src/quantum_codegen_eval, loaders/ and dataset_cards/
    (code and data, whatever the benchmark) and nothing else but its metadata."""
    import zipfile

    wheel = build_wheel(REPO, tmp_path)
    names = {n for n in zipfile.ZipFile(wheel).namelist() if ".dist-info/" not in n}
    assert names == _shipped_files()


def test_citation_file_is_cff_1_2_with_both_source_papers():
    cff = yaml.safe_load((REPO / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors", "version", "license"):
        assert cff[key]
    project = pyproject()["project"]
    assert "version" not in project and project["dynamic"] == ["version"]  # declared once
    from importlib import metadata

    import quantum_codegen_eval

    assert cff["version"] == quantum_codegen_eval.__version__
    assert metadata.version("quantum-codegen-eval") == quantum_codegen_eval.__version__
    titles = [ref["title"] for ref in cff["references"]]
    assert any(t.startswith("PennySynth: RAG-Driven Data Synthesis") for t in titles)
    assert any(t.startswith("QCoder Benchmark: Bridging Language Generation") for t in titles)
    for ref in cff["references"]:
        assert ref["type"] and ref["authors"]


def test_cli_has_every_subcommand():
    out = subprocess.run([sys.executable, "-m", "quantum_codegen_eval", "--help"],
                         capture_output=True, text=True, check=True).stdout
    for cmd in ("build", "judge", "env", "evaluate", "demo", "publish"):
        assert cmd in out
    usage = subprocess.run([sys.executable, "-m", "quantum_codegen_eval", "judge"],
                           capture_output=True, text=True)
    assert usage.returncode == 2 and "problem_id" in usage.stderr


def test_public_api_names_resolve_lazily():
    import quantum_codegen_eval as qce

    assert {"load_benchmark", "evaluate", "pass_at_k", "codebleu", "rouge_l",
            "find_hallucinations", "Sandbox"} <= set(qce.__all__)


def test_type_checking_imports_match_the_lazy_exports():
    """Every lazy export is also imported under TYPE_CHECKING (what editors see), and resolves."""
    import ast
    import importlib

    import quantum_codegen_eval as pkg

    tree = ast.parse(Path(pkg.__file__).read_text())
    guarded = {alias.asname or alias.name
               for node in ast.walk(tree) if isinstance(node, ast.If)
               and getattr(node.test, "id", "") == "TYPE_CHECKING"
               for imp in node.body if isinstance(imp, ast.ImportFrom) for alias in imp.names}
    assert guarded == set(pkg._EXPORTS) == set(pkg.__all__) - {"__version__"}
    for name, module in pkg._EXPORTS.items():
        exported = getattr(pkg, name)
        assert exported is getattr(importlib.import_module(module), name) or (
            name == "evaluate" and callable(exported))  # the submodule shadows it; it calls


def test_evaluate_is_callable_whichever_import_came_first():
    code = ("import quantum_codegen_eval.evaluate\nfrom quantum_codegen_eval import evaluate\n"
            "r = evaluate({'sample/qk_bell_circuit': ['']}, 'sample', 'qiskit', k=(1,))\n"
            "print(r.per_sample[0]['status'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stdout.strip() == "FORMAT", out.stderr
