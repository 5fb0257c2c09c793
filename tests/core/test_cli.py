"""`qce` as a user meets it: exit codes, help text, where the report went, and Ctrl-C."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from quantum_codegen_eval import cli
from quantum_codegen_eval.benchmarks.base import registry

QCE = [sys.executable, "-m", "quantum_codegen_eval"]
BELL = "sample/qk_bell_circuit"
RIGHT = ("```python\ndef bell_circuit():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    qc.cx(0, 1)\n"
         "    return qc\n```")
SLEEP = "```python\ndef bell_circuit():\n    import time\n    time.sleep(120)\n```"


def _run(*args, **kw):
    return subprocess.run([*QCE, *args], capture_output=True, text=True, timeout=300, **kw)


def _actions(parser: argparse.ArgumentParser, where: str = "qce"):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield f"{where} {choice.dest}", choice
            for name, sub in action.choices.items():
                yield from _actions(sub, f"{where} {name}")
        else:
            yield f"{where} {'/'.join(action.option_strings) or action.dest}", action


def test_every_option_and_subcommand_has_help():
    missing = [name for name, action in _actions(cli._parser()) if not action.help]
    assert missing == []


def test_evaluate_help_lists_the_benchmarks():
    out = _run("evaluate", "--help").stdout
    for bench in registry().values():
        assert bench.name in out


@pytest.mark.parametrize("args", [
    ["evaluate", "p.jsonl", "--benchmark", "no_such_benchmark"],
    ["evaluate", "p.jsonl", "--benchmark", "sample", "--config", "no_such_config"],
    ["judge", "no_such_benchmark", "P", "f.py"],
    ["judge", "pennysynth", "P", "f.py"],
    ["build", "no_such_dataset", "--out", "x"],
    ["evaluate", "p.jsonl"],  # --benchmark missing (argparse)
    ["no_such_command"],
])
def test_usage_errors_exit_2_with_one_line(args, tmp_path):
    proc = _run(*args, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "x").exists()


def test_bad_input_exits_3(tmp_path):
    proc = _run("evaluate", str(tmp_path / "missing.jsonl"), "--benchmark", "sample",
                "--out", str(tmp_path / "out"))
    assert proc.returncode == 3 and "missing.jsonl" in proc.stderr and "Traceback" not in proc.stderr


def test_evaluate_says_where_the_report_is(tmp_path):
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"id": BELL, "completion": RIGHT}) + "\n")
    out = tmp_path / "out"
    proc = _run("evaluate", str(preds), "--benchmark", "sample", "--config", "qiskit",
                "--out", str(out), "-k", "1")
    assert proc.returncode == 0, proc.stderr
    assert f"report written to {out / 'report.md'}" in proc.stderr
    assert "judging (starting workers)" in proc.stderr  # progress before the first result
    assert "# Evaluation report: sample (qiskit)" in proc.stdout
