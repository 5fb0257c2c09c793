"""The docs: every relative link resolves, and the runnable examples run."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_resolve(page):
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
        if "://" in target or target.startswith("mailto:"):
            continue
        assert (page.parent / target).exists(), f"{page.name}: broken link {target}"


@pytest.mark.parametrize("page", sorted((REPO / "docs" / "metrics").glob("*.md")),
                         ids=lambda p: p.name)
def test_metric_card_examples_run(page):
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS
                              | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


MODULES = ["verdict", "codeblocks", "hints", "benchmarks.base", "predictions", "metrics.signature", "metrics.passk",
           "metrics.rouge", "metrics.hallucination", "metrics.codebleu", "benchmarks.sample",
           "execution.types", "execution.store", "provenance", "metrics.paired", "metrics.fidelity",
           "judges.qcoder.compare", "neardup"]


@pytest.mark.parametrize("name", MODULES)
def test_module_docstring_examples_run(name):
    module = importlib.import_module(f"quantum_codegen_eval.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
