"""The release: sdist + wheel that twine accepts; the wheel installs into a fresh virtual
environment and `qce demo` runs from it (as a new user would)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _run(*cmd, **kw):
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    assert proc.returncode == 0, f"{cmd}: {proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    return proc


@pytest.mark.slow
def test_build_twine_and_fresh_install_runs_demo(tmp_path):
    dist = tmp_path / "dist"
    _run(sys.executable, "-m", "build", "--outdir", dist, REPO, timeout=600)
    wheels, sdists = list(dist.glob("*.whl")), list(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    _run(sys.executable, "-m", "twine", "check", "--strict", *wheels, *sdists, timeout=120)
    names = zipfile.ZipFile(wheels[0]).namelist()
    for needed in ("quantum_codegen_eval/metrics/data/pennylane_api_index.json.xz",
                   "quantum_codegen_eval/data/sample/tasks.jsonl",
                   "quantum_codegen_eval/dataset_cards/qhack/README.md",
                   "quantum_codegen_eval/loaders/qcoder.py",
                   "quantum_codegen_eval/view/assets/view.js"):
        assert needed in names, needed

    venv = tmp_path / "venv"
    base = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
    _run(base, "-m", "venv", venv, timeout=300)
    _run(venv / "bin" / "python", "-m", "pip", "install", "-q", f"{wheels[0]}[all]", timeout=1200)
    out = tmp_path / "report"
    proc = _run(venv / "bin" / "qce", "demo", "--out", out, "--json", cwd=tmp_path, timeout=600)
    summary = json.loads(proc.stdout)
    assert set(summary) == {"pennylane", "qiskit"}
    assert summary["qiskit"]["statuses"]["AC"] >= 1
    _run(venv / "bin" / "qce", "view", out, "--out", tmp_path / "site", "--n-boot", "100",
         cwd=tmp_path, timeout=300)  # its pages' assets come from the wheel
    assert {p.name for p in (tmp_path / "site" / "assets").iterdir()} == {
        "view.js", "view.css", "highlight.js"}
    loaded = _run(venv / "bin" / "python", "-c",
                  "import quantum_codegen_eval, sys; print(quantum_codegen_eval.__file__)",
                  cwd=tmp_path).stdout
    assert str(venv) in loaded  # the wheel, not the source tree
    _integrations_from_the_wheel(venv, wheels[0], tmp_path)
    if os.environ.get("QCE_GITHUB_URL", "").startswith("file://"):  # the QHack archives
        _rag_prompts_from_the_wheel(venv, tmp_path)


def _integrations_from_the_wheel(venv: Path, wheel: Path, tmp_path: Path) -> None:
    """Issue 31: the wheel with its ``[inspect,lm-eval]`` extras does all four ways in (other
    tools' files, inspect's task and scorer through its entry point and CLI, lm-eval's task
    folder): the repo's integration tests, run by this venv's interpreter on the installed
    package (pytest added as a test runner; no source tree on the path)."""
    python = venv / "bin" / "python"
    _run(python, "-m", "pip", "install", "-q", f"{wheel}[all,inspect,lm-eval]", "pytest",
         timeout=1200)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTEST_ADDOPTS")}
    _run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "--rootdir", REPO, "-c", REPO / "pyproject.toml", "--run-slow", REPO / "tests" / "integrations",
         cwd=tmp_path, env=env, timeout=1800)


def _rag_prompts_from_the_wheel(venv: Path, tmp_path: Path) -> None:
    """RAG prompts for the three QHack years from a corpus the wheel's builder made, with each
    retriever (issue 34)."""
    qce = venv / "bin" / "qce"
    _run(venv / "bin" / "python", "-m", "pip", "install", "-q", "scikit-learn", timeout=600)
    _run(qce, "build", "pennysynth", "--out", tmp_path / "corpus", "--option",
         "modules=pennylane.ops.qubit.parametric_ops_single_qubit", "progress=false",
         cwd=tmp_path, timeout=600)
    for module in ("pennysynth_user.py", "user_embed.py"):  # the user's code, beside the corpus
        shutil.copy(REPO / "tests" / "support" / module, tmp_path / module)
    for name, extra in (("bm25", []), ("embedding", ["--embed", "user_embed:embed"])):
        out = tmp_path / f"prompts-{name}.jsonl"
        _run(qce, "prompts", "qhack", "--rag", "corpus", "--retriever", name, "--threshold", "0.1",
             *extra, "--out", out, cwd=tmp_path, timeout=600,
             env={**os.environ, "QCE_RAG_CORPUS": str(tmp_path / "corpus")})
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        assert {r["group"] for r in rows} == {"2022", "2023", "2024"}
        assert all(r["rag"]["settings"]["retriever"] == name for r in rows)
        assert any(r["rag"]["retrieved"] for r in rows)
