"""A benchmark from outside, by entry point, is everywhere a built-in one is, with no edit in
this package (issues 31 and 35).

The throwaway benchmark (``plugin_throwaway/qce_throwaway``: two Qiskit tasks shipped as package
data) is copied into a temporary folder beside a ``.dist-info`` that declares its entry point in
the group ``quantum_codegen_eval.benchmarks``; with that folder on ``PYTHONPATH`` the real
``importlib.metadata`` discovery finds it, as it finds an installed distribution. Every check
runs in a fresh process (the registry is read once per process): ``qce benchmarks``,
``qce evaluate --help``, ``qce prompts``, ``qce evaluate`` (real judging), ``load_benchmark`` /
``benchmark_module``, and (slow) ``qce judge``, ``qce compare``, ``qce publish-run --dry-run``;
this repository's own registry-derived tests (the error-class paths, the declaration checks).
Broken plugins beside it are one stderr line each and break nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
QCE = [sys.executable, "-m", "quantum_codegen_eval"]
RIGHT = {"throwaway/bell": "```python\n" + "from qiskit import QuantumCircuit\n\n\ndef bell():\n"
         "    qc = QuantumCircuit(2)\n    qc.h(0)\n    qc.cx(0, 1)\n    return qc\n```",
         "throwaway/x_count": "    return sum(1 for i in qc.data if i.operation.name == 'x')\n"}
WRONG = "    return len(qc.data)\n"  # counts the H gate too


def _dist(site: Path, name: str, version: str, entries: dict[str, str]) -> None:
    """A distribution's metadata on a path folder: what pip leaves beside an installed package."""
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text("[quantum_codegen_eval.benchmarks]\n" + "".join(
        f"{k} = {v}\n" for k, v in entries.items()))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    shutil.copytree(HERE / "plugin_throwaway" / "qce_throwaway", site / "qce_throwaway")
    _dist(site, "qce-throwaway", "0.0.1", {"throwaway": "qce_throwaway"})
    return site


@pytest.fixture(scope="module")
def broken(tmp_path_factory, site) -> Path:
    """Beside the throwaway: a plugin that cannot be imported, one that declares nothing, one
    whose entry point and declaration disagree, and one that takes a built-in's name."""
    extra = tmp_path_factory.mktemp("broken")
    (extra / "qce_raises.py").write_text("raise RuntimeError('the plugin is broken')\n")
    (extra / "qce_empty.py").write_text("BENCHMARK = 'not a declaration'\n")
    (extra / "qce_clash.py").write_text("from dataclasses import replace\n\n"
                                        "from qce_throwaway import BENCHMARK as THROWAWAY\n\n"
                                        "BENCHMARK = replace(THROWAWAY, name='qcoder')\n"
                                        "ALIASED = replace(THROWAWAY, name='other', "
                                        "aliases=('HumanEval',))\n")
    _dist(extra, "qce-broken", "1.2", {"missing": "qce_no_such_module", "raises": "qce_raises",
                                       "empty": "qce_empty", "renamed": "qce_throwaway",
                                       "qcoder": "qce_clash", "other": "qce_clash:ALIASED"})
    return extra


def _run(*args, path: list[Path], cwd: Path | None = None, rc: int = 0, timeout: int = 600):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, path))}
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=timeout)
    assert proc.returncode == rc, f"{args}: rc {proc.returncode}\n{proc.stdout[-3000:]}\n" \
                                  f"{proc.stderr[-3000:]}"
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def _predictions(path: Path, rows: list[tuple[str, str]]) -> Path:
    path.write_text("".join(json.dumps({"id": i, "completion": c}) + "\n" for i, c in rows))
    return path


def test_the_plugin_is_listed_with_where_it_comes_from(site):
    rows = [json.loads(line) for line in
            _run(*QCE, "benchmarks", "--json", path=[site]).stdout.splitlines()]
    by_name = {r["name"]: r for r in rows}
    assert by_name["throwaway"] == {
        "name": "throwaway", "source": "qce-throwaway 0.0.1", "judged": True, "configs": ["all"],
        "judged_configs": ["all"], "module": "qce_throwaway",
        "description": "two Qiskit tasks of a throwaway plugin"}
    assert by_name["qcoder"]["source"] == "built-in"
    table = _run(*QCE, "benchmarks", path=[site]).stdout.splitlines()
    assert table[0].split() == ["name", "source", "judged", "configs"]
    assert any(line.split() == ["throwaway", "qce-throwaway", "0.0.1", "yes", "all"]
               for line in table)
    help_text = _run(*QCE, "evaluate", "--help", path=[site]).stdout
    assert "throwaway (all)" in " ".join(help_text.split())
    # without the folder on the path, it is gone: nothing of it lives in the package
    assert "throwaway" not in _run(*QCE, "benchmarks", path=[]).stdout


def test_prompts_data_and_module_of_the_plugin(site):
    prompts = [json.loads(line) for line in
               _run(*QCE, "prompts", "throwaway", "--out", "-", path=[site]).stdout.splitlines()]
    assert [p["id"] for p in prompts] == ["throwaway/bell", "throwaway/x_count"]
    assert prompts[0]["prompt"].startswith("from qiskit import QuantumCircuit")
    code = ("from quantum_codegen_eval import load_benchmark\n"
            "from quantum_codegen_eval.benchmarks import benchmark_module\n"
            "print(load_benchmark('throwaway').num_rows)\n"
            "mod = benchmark_module('throwaway')\n"
            "recs = mod.problems()\n"
            "print(mod.__name__, sorted(recs))\n"
            "print(mod.reference_code(recs['throwaway/bell']).count('qc.cx(0, 1)'))\n")
    out = _run(sys.executable, "-c", code, path=[site]).stdout.splitlines()
    assert out == ["2", "qce_throwaway ['throwaway/bell', 'throwaway/x_count']", "1"]


def test_the_plugin_is_judged(site, tmp_path):
    preds = _predictions(tmp_path / "p.jsonl", [*RIGHT.items(), ("throwaway/x_count", WRONG)])
    _run(*QCE, "evaluate", preds, "--benchmark", "throwaway", "--out", tmp_path / "run",
         "-k", "1", "--no-progress", path=[site], cwd=tmp_path)
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    assert [(r["key"], r["status"]) for r in report["per_sample"]] == [
        ("throwaway/bell#0", "AC"), ("throwaway/x_count#0", "AC"), ("throwaway/x_count#1", "WA")]
    assert report["benchmark"] == "throwaway"


@pytest.mark.slow
def test_runs_of_the_plugin_are_compared_and_published(site, tmp_path):
    right = _predictions(tmp_path / "right.jsonl", list(RIGHT.items()))
    wrong = _predictions(tmp_path / "wrong.jsonl", [("throwaway/bell", RIGHT["throwaway/bell"]),
                                                     ("throwaway/x_count", WRONG)])
    for name, preds in (("a", right), ("b", wrong)):
        _run(*QCE, "evaluate", preds, "--benchmark", "throwaway", "--out", tmp_path / name,
             "-k", "1", "--no-progress", path=[site], cwd=tmp_path)
    (tmp_path / "one.py").write_text(WRONG)
    judged = _run(*QCE, "judge", "throwaway", "throwaway/x_count", tmp_path / "one.py", "--json",
                  path=[site], rc=1)
    assert json.loads(judged.stdout)["status"] == "WA"
    _run(*QCE, "compare", tmp_path / "a", tmp_path / "b", "--out", tmp_path / "cmp", "-k", "1",
         path=[site], cwd=tmp_path)
    assert "throwaway" in (tmp_path / "cmp" / "comparison.md").read_text()
    _run(*QCE, "publish-run", tmp_path / "a", "--repo-id", "someone/throwaway-runs", "--out",
         tmp_path / "pub", "--dry-run", path=[site], cwd=tmp_path)
    assert list((tmp_path / "pub").rglob("details_throwaway_all*"))


@pytest.mark.slow  # a nested pytest run of three test files (about 20 s)
def test_the_repositorys_registry_derived_tests_take_it_in(site):
    """The tests that cover every benchmark or judge read the registry: with the plugin on the
    path they cover it too (and still pass)."""
    probe = ("import importlib.util, sys\n"
             f"spec = importlib.util.spec_from_file_location('t', {str(HERE / 'test_error_classes.py')!r})\n"
             "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
             "print(' '.join(m.JUDGES))\n")
    assert "throwaway" in _run(sys.executable, "-c", probe, path=[site]).stdout.split()
    _run(sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
         "tests/core/test_error_classes.py", "tests/core/test_benchmarks.py",
         "tests/core/test_cli.py::test_evaluate_help_lists_the_benchmarks",
         path=[site], cwd=REPO, timeout=900)


def test_a_broken_plugin_is_one_line_and_the_others_stay(site, broken):
    proc = _run(*QCE, "benchmarks", path=[site, broken])
    listed = [line.split()[0] for line in proc.stdout.splitlines()[1:]]
    assert "throwaway" in listed and "qcoder" in listed
    lines = proc.stderr.splitlines()
    assert len(lines) == 6, proc.stderr
    want = {
        "missing": "ModuleNotFoundError: No module named 'qce_no_such_module'",
        "raises": "RuntimeError: the plugin is broken",
        "empty": "qce_empty declares no Benchmark as BENCHMARK",
        "renamed": "the entry point 'renamed' names a declaration of 'throwaway'",
        "qcoder": "'qcoder' is already the built-in benchmark of that name",
        "other": "its alias 'humaneval' names another benchmark",
    }
    for name, why in want.items():
        assert f"qce: benchmark plugin {name!r} (qce-broken 1.2) not loaded: {why}" in lines
    # the command still works on a built-in and on the good plugin
    _run(*QCE, "prompts", "throwaway", "--out", "-", path=[site, broken])
