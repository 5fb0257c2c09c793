"""`qce` as a user meets it: exit codes, help text, where the report went, and Ctrl-C."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest
from sample_answers import BELL, RIGHT

from quantum_codegen_eval import cli
from quantum_codegen_eval.benchmarks.base import registry

QCE = [sys.executable, "-m", "quantum_codegen_eval"]


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
    ["build", "pennysynth"],  # not a pinned upstream: --out is required
    ["build", "quantum_katas", "--source", "x"],  # a local copy never goes into the cache
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


def test_k_values_end_where_the_predictions_file_begins():
    parse = cli._parser().parse_args
    for argv in (["evaluate", "-k", "1", "5", "p.jsonl", "--benchmark", "sample"],
                 ["evaluate", "p.jsonl", "--benchmark", "sample", "-k", "1", "5"],
                 ["evaluate", "-k", "1", "-k", "5", "p.jsonl", "--benchmark", "sample"]):
        args = parse(cli._k_apart(argv))
        assert (args.predictions, args.k) == ("p.jsonl", [1, 5]), argv
    args = parse(cli._k_apart(["compare", "-k", "2", "a", "b", "--out", "o"]))
    assert (args.runs, args.k) == (["a", "b"], [2])
    # what follows `--` is never rewritten; a value that is no number is argparse's error
    assert cli._k_apart(["-k", "1", "p", "--", "-k", "2", "x"]) == ["-k1", "p", "--", "-k", "2",
                                                                  "x"]
    assert cli._k_apart(["-k", "x"]) == ["-k", "x"]


def test_k_before_the_file_reads_the_file(tmp_path):
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"id": "no/such_task", "completion": RIGHT}) + "\n")
    proc = _run("evaluate", "-k", "1", "5", str(preds), "--benchmark", "sample", "--config",
                "qiskit", "--out", str(tmp_path / "out"), "--no-progress")
    # the file was read as predictions: its one id is unknown, so nothing is counted (exit 3)
    assert proc.returncode == 3, proc.stderr
    assert "nothing counted: 0 of 1 ids belong to sample/qiskit" in proc.stderr
    assert "invalid int value" not in proc.stderr


def test_contamination_exits_1_when_flagged_unless_exit_zero(tmp_path, capsys):
    from quantum_codegen_eval.benchmarks.base import get
    from quantum_codegen_eval.contamination import problem_texts

    bench = get("sample")
    task = bench.loader.get_problem(BELL)
    copy, clean = tmp_path / "copy.jsonl", tmp_path / "clean.jsonl"
    copy.write_text(json.dumps({"id": "leak", "code": problem_texts(bench, task)["reference"]})
                    + "\n")
    clean.write_text(json.dumps({"id": "other", "code": "def add(a, b):\n    return a + b\n"})
                     + "\n")
    base = ["contamination", "--benchmark", "sample", "--config", "qiskit", "--json"]
    assert cli.main([*base, str(clean)]) == 0
    assert json.loads(capsys.readouterr().out)["problems_flagged"] == 0
    assert cli.main([*base, str(copy)]) == 1
    captured = capsys.readouterr()
    assert list(json.loads(captured.out)["flagged"]) == [BELL]
    assert captured.err.strip() == ("qce contamination: 1 of 4 problems flagged (exit 1; "
                                    "--exit-zero to exit 0)")
    assert cli.main([*base, str(copy), "--exit-zero"]) == 0
    assert list(json.loads(capsys.readouterr().out)["flagged"]) == [BELL]
