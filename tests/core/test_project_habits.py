"""The habits of a maintained package: workflows that lint clean, a release by trusted publishing,
pre-commit running the ruff `make lint` runs, the Pythons the workflows test are the ones the
package declares, and the documentation site builds strictly from docs/ itself."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from pyproject_meta import pyproject

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = REPO / ".github" / "workflows"


def _workflow(name: str) -> dict:
    # PyYAML reads the key `on` as True (YAML 1.1)
    return yaml.safe_load((WORKFLOWS / name).read_text())


def _actionlint() -> str | None:
    beside = Path(sys.executable).with_name("actionlint")
    return str(beside) if beside.exists() else shutil.which("actionlint")


def test_workflows_lint_clean_under_actionlint():
    tool = _actionlint()
    if tool is None:
        pytest.skip("actionlint not installed (the test extra installs it)")
    files = sorted(str(p) for p in WORKFLOWS.glob("*.yml"))
    assert files
    out = subprocess.run([tool, *files], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_fast_tier_runs_on_every_declared_python_and_the_full_tier_on_one():
    jobs = _workflow("ci.yml")["jobs"]
    tested = jobs["fast"]["strategy"]["matrix"]["python"]
    meta = pyproject()["project"]
    declared = [c.rsplit(" :: ", 1)[1] for c in meta["classifiers"]
                if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert tested == declared
    assert meta["requires-python"] == f">={tested[0]}"
    runs = [step.get("run", "") for step in jobs["fast"]["steps"]]
    assert any("make test-fast" in r for r in runs)
    assert any("make test " in r for r in (s.get("run", "") for s in jobs["full"]["steps"]))
    assert any("make lint" in r or "pre-commit run" in r
               for r in (s.get("run", "") for s in jobs["lint"]["steps"]))


def test_a_release_publishes_with_pypi_trusted_publishing():
    flow = _workflow("release.yml")
    assert flow[True]["push"]["tags"]  # `on: push: tags`
    publish = flow["jobs"]["publish"]
    assert publish["permissions"] == {"id-token": "write"}
    uses = [s.get("uses", "") for s in publish["steps"]]
    assert any(u.startswith("pypa/gh-action-pypi-publish@") for u in uses)
    assert not any("password" in (s.get("with") or {}) for s in publish["steps"])  # no token
    build = [s.get("run", "") for s in flow["jobs"]["build"]["steps"]]
    assert any("python -m build" in r for r in build)


def test_pre_commit_runs_the_ruff_make_lint_runs_on_the_same_folders():
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text())
    ruff_repo = next(r for r in config["repos"] if r["repo"].endswith("/ruff-pre-commit"))
    test_extra = pyproject()[
        "project"]["optional-dependencies"]["test"]
    pinned = next(d for d in test_extra if d.startswith("ruff=="))
    assert ruff_repo["rev"] == "v" + pinned.split("==")[1]
    hook = next(h for h in ruff_repo["hooks"] if h["id"] == "ruff")
    assert "args" not in hook  # the rules are pyproject's [tool.ruff], as for `make lint`
    linted = re.search(r"^LINTED := (.+)$", (REPO / "Makefile").read_text(), re.M).group(1).split()
    pattern = re.compile(hook["files"])
    for entry in linted:  # folders, or single files such as setup.py
        assert pattern.search(entry if entry.endswith(".py") else f"{entry}/x.py"), entry


def test_the_documentation_site_builds_strictly_from_docs(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs not installed (the docs extra installs it)")
    pytest.importorskip("mkdocstrings", reason="mkdocstrings not installed (the docs extra)")
    config = yaml.load((REPO / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    assert config["docs_dir"] == "docs"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    out = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                          "-d", str(tmp_path / "site")], capture_output=True, text=True,
                         cwd=REPO, env=env, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    # every page of docs/ is a page of the site (mkdocs' omitted_files warns, strict fails)
    for page in (REPO / "docs").rglob("*.md"):
        rel = page.relative_to(REPO / "docs").with_suffix("")
        index = "index.html" if rel.name == "index" else f"{rel}/index.html"
        target = tmp_path / "site" / (rel.parent / "index.html" if rel.name == "index" else index)
        assert target.exists(), page
    # the API reference is generated: a docstring of the package is on the page
    reference = (tmp_path / "site" / "reference" / "index.html").read_text()
    assert "Unbiased pass@k" in reference or "unbiased" in reference.lower()
