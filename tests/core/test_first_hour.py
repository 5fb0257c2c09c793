"""Issue 21, the researcher's first hour, driven as a user meets it: ``qce`` in a subprocess whose
stderr is a file (not a terminal), its exit code and the exact lines it prints."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from sample_answers import BELL, RIGHT

from quantum_codegen_eval import cli
from quantum_codegen_eval.benchmarks.base import names

QCE = [sys.executable, "-m", "quantum_codegen_eval"]
GHZ = "sample/qk_ghz_circuit"
WRONG = "```python\ndef bell_circuit():\n    qc = QuantumCircuit(2)\n    return qc\n```"


def _run(*args, cwd=None, env=None, timeout=600):
    import os

    return subprocess.run([*QCE, *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout, env={**os.environ, **(env or {})})


def _errors(proc) -> list[str]:
    return [line for line in proc.stderr.splitlines() if line.startswith("qce")]


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """One evaluate run with ``-k 1 2`` where GHZ has one sample: pass@2 is missing for it and
    for 'all'; BELL has two (one right, one wrong)."""
    tmp = tmp_path_factory.mktemp("first-hour")
    preds = _write(tmp / "p.jsonl", [{"id": BELL, "completion": RIGHT},
                                     {"id": BELL, "completion": WRONG},
                                     {"id": GHZ, "completion": "no code"}])
    proc = _run("evaluate", preds, "--benchmark", "sample", "--config", "qiskit", "-k", "1", "2",
                "--out", tmp / "out", "--workers", "2")
    return tmp, proc


def test_k_above_a_problems_samples_is_loud(run):
    tmp, proc = run
    assert proc.returncode == 0, proc.stderr
    note = ("qce evaluate: note: pass@2 is not estimated for 1 of 2 problems, which have fewer "
            f"than 2 samples ({GHZ}); so neither for their difficulty nor for 'all' (shown as –); "
            "give at least 2 samples per problem, or a smaller -k")
    assert note in proc.stderr.splitlines()
    md = (tmp / "out" / "report.md").read_text()
    assert "## Notes" in md and "pass@2 is not estimated for 1 of 2 problems" in md
    summary = json.loads((tmp / "out" / "report.json").read_text())["summary"]
    assert summary["k_above_samples"] == {"2": [GHZ]}
    assert summary["pass@k"]["all"]["pass@2"] is None


def test_report_shows_intervals_per_problem_rows_and_signatures(run):
    from scipy import stats

    tmp, _ = run
    report = json.loads((tmp / "out" / "report.json").read_text())
    s = report["summary"]
    low, high = s["pass@k_ci"]["all"]["pass@1"]
    # BELL 1/2, GHZ 0/1: problem values 0.5 and 0; the bootstrap of their mean stays in [0, 0.5]
    assert s["pass@k"]["all"]["pass@1"] == 0.25 and 0 <= low <= 0.25 <= high <= 0.5
    ref = stats.bootstrap(([0.5, 0.0],), lambda x: x.mean(), n_resamples=1000,
                          confidence_level=0.95, method="percentile", random_state=0)
    assert (ref.confidence_interval.low, ref.confidence_interval.high) == (0.0, 0.5)
    assert (low, high) == (0.0, 0.5)
    assert s["pass@k_ci_method"] == {"method": "percentile bootstrap over problems", "level": 0.95,
                                     "n_boot": 1000, "seed": 0}
    assert report["signatures"]["pass@1"].startswith("pass_at_k|k:1|estimator:chen2021|")
    assert report["signatures"]["pass@1 interval"].startswith("pass_at_k_ci|k:1|")
    md = (tmp / "out" / "report.md").read_text()
    assert "| all | 2 | 25.0 [0.0, 50.0] | – |" in md
    assert "## Per problem" in md and f"| {BELL} | basic | 2 | 1 | 50.0 | AC 1, WA 1 |" in md
    assert "- pass@1: `pass_at_k|k:1|estimator:chen2021|" in md
    assert "&gt;" not in md and "&amp;" not in md


def test_progress_into_a_log_is_sparse_and_says_what_follows_the_bar(run):
    _, proc = run
    err = proc.stderr
    assert err.count("judging") <= 3, err  # not redrawn twice a second into a file
    assert "Generating" not in err  # no datasets split bars
    lines = err.splitlines()
    assert "scoring 3 samples (codebleu, rouge_l) ..." in lines
    assert "writing the report (JSON, Markdown, plots) ..." in lines


def test_plot_has_whiskers_and_no_legend_entry_for_a_missing_k(run):
    from matplotlib import pyplot as plt

    from quantum_codegen_eval.report import Report, report_figures

    tmp, _ = run
    data = json.loads((tmp / "out" / "report.json").read_text())
    fig = report_figures(Report(**data))["pass_at_k"]
    ax = fig.axes[0]
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["pass@1"]  # pass@2 has no bar at all
    assert "pass@2: not estimated" in ax.get_title()
    from matplotlib.container import BarContainer

    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert len(bars) == 1 and bars[0].errorbar is not None  # whiskers
    # the legend sits beside the axes: it covers no bar
    fig.canvas.draw()
    box = legend.get_window_extent()
    assert box.x0 >= ax.get_window_extent().x1
    plt.close(fig)


def test_rerun_into_a_used_folder_names_the_flag(run):
    tmp, first = run
    argv = ["evaluate", tmp / "p.jsonl", "--benchmark", "sample", "--config", "qiskit", "-k", "1",
            "--out", tmp / "out"]
    proc = _run(*argv)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    (line,) = _errors(proc)
    assert line.startswith(f"qce evaluate: {tmp / 'out' / 'results.jsonl'} already has results")
    assert line.endswith("--resume (or choose another --out / --store)")
    assert "resume=True" not in proc.stderr


def test_all_unknown_ids_count_nothing_and_exit_3(tmp_path):
    preds = _write(tmp_path / "p.jsonl", [{"id": "QPC001_A1", "completion": "x"},
                                          {"id": "QPC001_A2", "completion": "y"}])
    proc = _run("evaluate", preds, "--benchmark", "sample", "--config", "qiskit",
                "--out", tmp_path / "a", "--no-progress")
    assert proc.returncode == 3, proc.stderr
    assert _errors(proc)[-1] == ("qce evaluate: nothing counted: 0 of 2 ids belong to "
                                 "sample/qiskit; its ids look like 'sample/qk_basis_state', yours "
                                 "like 'QPC001_A1': is --benchmark right?")
    # ids of another config of the same benchmark: that config is named
    preds = _write(tmp_path / "q.jsonl", [{"id": BELL, "completion": RIGHT}])
    proc = _run("evaluate", preds, "--benchmark", "sample", "--config", "pennylane",
                "--out", tmp_path / "b", "--no-progress")
    assert proc.returncode == 3
    assert _errors(proc)[-1] == ("qce evaluate: nothing counted: 0 of 1 ids belong to "
                                 "sample/pennylane; did you mean --config all (1 of 1 ids are "
                                 "there)?")


@pytest.mark.parametrize("args, line", [
    (["evalute", "p.jsonl"], "qce: unknown command 'evalute'; did you mean 'evaluate'? (known: "
                             f"{', '.join(cli._COMMANDS)})"),
    (["evaluate", "p.jsonl", "--benchmark", "qhak"],
     f"qce evaluate: unknown benchmark 'qhak'; known: {', '.join(names())}; did you mean "
     "'qhack'?"),
    (["evaluate", "p.jsonl", "--benchmark", "sample", "--config", "qiskt"],
     "qce evaluate: unknown sample config 'qiskt'; known: all, pennylane, qiskit; did you mean "
     "'qiskit'?"),
    (["evaluate", "p.jsonl", "--benchmark", "qcoder", "--config", "submissions"],
     "qce evaluate: qcoder config 'submissions' is data only (no problems to judge); evaluate "
     "one of: problems"),
    (["prompts", "qcoder", "--config", "revisions", "--out", "x.jsonl"],
     "qce prompts: qcoder config 'revisions' is data only (no problems to judge); evaluate one "
     "of: problems"),
])
def test_misspelled_and_data_only_names_exit_2_with_one_line(args, line, tmp_path):
    (tmp_path / "p.jsonl").write_text(json.dumps({"id": BELL, "completion": RIGHT}) + "\n")
    proc = _run(*args, cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert _errors(proc) == [line]


def test_help_texts_are_true():
    wide = {"COLUMNS": "400"}  # one line per option
    ev = _run("evaluate", "--help", env=wide).stdout
    assert "submissions" not in ev and "revisions" not in ev  # data only: refused by evaluate
    assert "qcoder (problems)" in " ".join(ev.split())
    assert "(default: the Hub)" not in ev and "default: qce-report" in " ".join(ev.split())
    build = _run("build", "--help", env=wide).stdout
    assert "make_manifest" not in build and "pennylane_api_index" in build
    assert "in seconds" not in _run("--help").stdout


def test_data_folder_of_another_benchmark_is_named(tmp_path):
    """A qiskit_humaneval-shaped card (configs normal, hard) given to qhack."""
    folder = tmp_path / "he"
    folder.mkdir()
    (folder / "README.md").write_text("---\nconfigs:\n- config_name: normal\n  data_files: n.parquet\n"
                                      "- config_name: hard\n  data_files: h.parquet\n---\n# x\n")
    proc = _run("prompts", "qhack", "--config", "2023", "--data-dir", folder, "--out", "-")
    assert proc.returncode == 2 and "BuilderConfig" not in proc.stderr
    assert _errors(proc) == [f"qce prompts: {folder} is not a qhack dataset folder: it holds the "
                             "configs normal, hard, not qhack's '2023' (another benchmark's "
                             "folder?); pass the folder `qce build qhack --out DIR` wrote"]


def _imported(proc) -> set[str]:
    return {line.split("|")[-1].strip() for line in proc.stderr.splitlines()
            if line.startswith("import time:")}


@pytest.mark.slow  # several seconds of real processes: not in the fast tier
def test_commands_import_only_what_they_need(tmp_path):
    """``qce judge sample`` reads the shipped tasks without ``datasets`` (pandas, pyarrow: seconds),
    and no command imports nltk (rouge-score's stemmer, which pulls in scipy.stats: 20 s under
    load) for the code tokenizer the report uses."""
    code = tmp_path / "bell.md"
    code.write_text(RIGHT)
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "quantum_codegen_eval",
                           "judge", "sample", BELL, str(code)], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert f"judging {BELL} (sample) ..." in proc.stderr.splitlines()
    mods = _imported(proc)
    assert "datasets" not in mods and "nltk" not in mods and "pennylane" not in mods
    preds = _write(tmp_path / "p.jsonl", [{"id": BELL, "completion": RIGHT}])
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "quantum_codegen_eval",
                           "evaluate", str(preds), "--benchmark", "sample", "--config", "qiskit",
                           "-k", "1", "--out", str(tmp_path / "out"), "--no-progress"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    mods = _imported(proc)
    assert "nltk" not in mods and "datasets" not in mods


def test_sample_tasks_are_the_rows_load_gives():
    from quantum_codegen_eval.benchmarks import sample

    for config in sample.CONFIGS:
        rows = {r["task_id"]: r for r in sample.load(config)}
        tasks = sample.problems(config)
        assert sorted(tasks) == sorted(rows)
        assert all(tasks[t].prompt == rows[t]["prompt"] and tasks[t].test == rows[t]["test"]
                   for t in tasks)


def test_qiskit_is_bounded_below_3():
    """Qiskit 3 removes the annotated ``Gate.control()`` the QCoder simulator uses."""
    from pyproject_meta import pyproject

    meta = pyproject()
    reqs = [r for extra in meta["project"]["optional-dependencies"].values() for r in extra
            if re.match(r"qiskit(?![-\w])", r)]
    assert reqs and all("<3" in r for r in reqs), reqs


def test_readme_names_the_fast_tier_and_the_full_suites_time():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert "make test-fast" in readme
    assert re.search(r"make test .*\n.*about \d+ (minutes|hours)", readme), readme[:800]
