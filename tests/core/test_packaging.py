"""The package metadata: the explicit package list, the citation file, the CLI shape."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import tomllib
import yaml

REPO = Path(__file__).resolve().parents[2]


def _packages_on_disk() -> set[str]:
    found = set()
    src = REPO / "src"
    for init in src.rglob("__init__.py"):
        found.add(".".join(init.parent.relative_to(src).parts))
    for top, name in (("loaders", "loaders"), ("dataset_cards", "dataset_cards")):
        for init in (REPO / top).rglob("__init__.py"):
            rel = init.parent.relative_to(REPO / top).parts
            found.add(".".join(("quantum_codegen_eval", name, *rel)))
    return found


def test_explicit_package_list_matches_the_tree():
    meta = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert set(meta["tool"]["setuptools"]["packages"]) == _packages_on_disk()


def test_citation_file_is_cff_1_2_with_both_source_papers():
    cff = yaml.safe_load((REPO / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors", "version", "license"):
        assert cff[key]
    assert cff["version"] == tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
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
