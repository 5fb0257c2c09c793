"""examples/plugin, the outside package of docs/writing-a-benchmark.md: it imports only the public
API, and (slow) its wheel installed beside this package's wheel in a fresh virtual environment is
a benchmark like the built-in ones: listed, prompted, its reference solutions judged AC and wrong
answers not."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import pytest
from wheels import build_wheel, run, scratch, venv

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "plugin"
PUBLIC = {"quantum_codegen_eval.plugin"}


def test_the_example_imports_only_the_public_api():
    used = set()
    for path in (EXAMPLE / "src").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and not node.level else [])
            used |= {n for n in names if n and n.split(".")[0] == "quantum_codegen_eval"}
    assert used == PUBLIC


def test_the_example_declares_its_entry_point():
    tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")

    meta = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())
    entries = meta["project"]["entry-points"]["quantum_codegen_eval.benchmarks"]
    assert entries == {"qiskit_basics": "qce_qiskit_basics"}
    rows = (EXAMPLE / "src" / "qce_qiskit_basics" / "data" / "tasks.jsonl").read_text()
    assert 4 <= len(rows.splitlines()) <= 6


WRONG = {  # (problem, answer, the status it must get)
    "qiskit_basics/count_gates": ("```python\ndef count_gates(qc, name):\n"
                                  "    return len(qc.data)\n```", "WA"),
    "qiskit_basics/ghz": ("```python\nfrom qiskit import QuantumCircuit\n\n\ndef ghz(n):\n"
                          "    qc = QuantumCircuit(n)\n    qc.h(range(n))\n    return qc\n```",
                          "WA"),
    # no code block: the whole text is the program, a SyntaxError (class: formatting)
    "qiskit_basics/bell_pair": ("I cannot write code.", "RE"),
}


@pytest.fixture
def place():
    """A world-traversable scratch folder (the sandbox's user runs the venv's interpreter)."""
    with scratch("qce-plugin-") as path:
        yield path


@pytest.mark.slow
def test_the_example_installed_beside_the_wheel_is_judged(place):
    package = build_wheel(REPO, place / "dist")
    plugin = build_wheel(EXAMPLE, place / "dist-plugin")
    py, qce = venv(place / "venv")
    run(py, "-m", "pip", "install", "-q", f"{package}[qiskit]", plugin, timeout=1800)
    env = {"PYTHONPATH": "", "QCE_CACHE": str(place / "cache")}

    listed = run(qce, "benchmarks", env=env, cwd=place)
    assert "Traceback" not in listed.stderr and "not loaded" not in listed.stderr
    assert ["qiskit_basics", "qce-qiskit-basics", "0.1.0", "yes", "all"] in [
        line.split() for line in listed.stdout.splitlines()]
    prompts = run(qce, "prompts", "qiskit_basics", "--out", "-", env=env, cwd=place).stdout
    ids = [json.loads(line)["id"] for line in prompts.splitlines()]
    assert len(ids) == 5 and ids[0] == "qiskit_basics/bell_pair"

    # the plugin's own reference solutions, as a model would answer: all AC; wrong ones not
    tasks = [json.loads(line) for line in (EXAMPLE / "src" / "qce_qiskit_basics" / "data"
                                           / "tasks.jsonl").read_text().splitlines()]
    rows = [{"id": t["task_id"], "completion": f"```python\n{t['reference']}```"} for t in tasks]
    rows += [{"id": pid, "completion": answer} for pid, (answer, _) in WRONG.items()]
    preds = place / "predictions.jsonl"
    preds.write_text("".join(json.dumps(r) + "\n" for r in rows))
    run(qce, "evaluate", preds, "--benchmark", "qiskit_basics", "--out", place / "run", "-k", "1",
        "--no-progress", env=env, cwd=place)
    report = json.loads((place / "run" / "report.json").read_text())
    got = [(r["key"], r["status"]) for r in report["per_sample"]]
    statuses = [r["status"] for r in report["per_sample"]]
    assert statuses[:5] == ["AC"] * 5, got
    assert statuses[5:] == [status for _, status in WRONG.values()], got
    assert not any(r.get("judge_error") for r in report["per_sample"])
    assert report["per_sample"][-1]["error_class"] == "formatting"
    md = (place / "run" / "report.md").read_text()
    assert md.startswith("# Evaluation report: qiskit_basics")
