"""docs/quickstart.md's QCoder loop runs as written (prompts, stub model, predictions, qce
evaluate, the report, then the Python form) with this checkout's ``qce``. The QHack 2023 loop
and the whole page from a fresh wheel install: test_wheel.py."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.upstream, pytest.mark.slow]


def test_qcoder_loop_runs_as_documented(github_url, tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("quickstart", Path(__file__).with_name("quickstart.py"))
    qs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(qs)
    assert [lang for lang, _ in qs.blocks("QCoder")] == ["bash", "python", "bash"]
    bindir = Path(sys.executable).parent
    env = {"QCE_CACHE": str(tmp_path / "cache"), "QCE_GITHUB_URL": github_url,
           "PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}"}
    out = qs.run("QCoder", tmp_path, sys.executable, env)
    assert out.startswith("# Evaluation report: qcoder") and "pass@1" in out
    preds = [json.loads(line) for line in (tmp_path / "qcoder-predictions.jsonl").read_text().splitlines()]
    assert len(preds) == 67 and all(p["completion"].startswith("```python\n") for p in preds)
    assert "def solve(" in preds[0]["completion"]  # the stub found the template in the prompt
    report = json.loads((tmp_path / "qcoder-run" / "report.json").read_text())
    assert len(report["per_sample"]) == 67
    out = qs.run("From Python", tmp_path, sys.executable, env)
    assert "pass@1" in out
