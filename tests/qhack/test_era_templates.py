"""Each year's era environment runs the harness of every unfilled template without an error in the
benchmark's own code (one sandbox batch per year, the first public test of each challenge)."""

from __future__ import annotations

import json

import pytest

from quantum_codegen_eval.benchmarks import _qhack_envs as eras
from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.judges.qhack import (
    RESULT_FILE,
    harness_incompatibility,
    unfilled_solution,
)


def _first_jobs(judge, recs):
    return [judge.program_jobs(r, unfilled_solution(r))[0] for r in recs]


def _problems(results, jobs):
    out = {}
    for job, r in zip(jobs, results, strict=True):
        raw = r.files.get(RESULT_FILE)
        if r.status == "timeout" or not raw:
            out[job.id] = f"{r.status}: no result. {r.stderr[-300:]}"
            continue
        why = harness_incompatibility(json.loads(raw))
        if why:
            out[job.id] = why
    return out


@pytest.mark.slow
@pytest.mark.era
@pytest.mark.parametrize("year", ["2022", "2023", "2024"])
def test_unfilled_templates_run_in_era_env(year, qhack_problems, sandbox):
    recs = [r for r in qhack_problems.values() if str(r.year) == year]
    judge = qhack.make_judge(env="era")
    jobs = _first_jobs(judge, recs)
    assert {j.python for j in jobs} == {str(eras.env_python(f"qhack-{year}"))}
    assert _problems(sandbox.run_jobs(jobs), jobs) == {}


@pytest.mark.slow
def test_current_mode_shims_cover_every_harness(qhack_problems, sandbox):
    """On today's PennyLane the unfilled templates run their harness cleanly with the shims;
    without them the known breaks show up (so the check above can fail)."""
    recs = list(qhack_problems.values())
    shimmed = _first_jobs(qhack.make_judge(env="current"), recs)
    bare = _first_jobs(qhack.make_judge(env="current", shims=False), recs)
    res = sandbox.run_jobs(shimmed + bare)
    assert _problems(res[:len(recs)], shimmed) == {}
    broken = _problems(res[len(recs):], bare)
    assert {k.split("::")[0] for k in broken} >= {
        "2022/qchem_500_MindTheGap_template", "2023/office_hijinks_400",
        "2023/office_hijinks_500", "2024/fireworks_qutropolis", "2024/ruins_oasis"}
    # ruins_oasis runs its official check (which reads `.tape`) in the program again: a recorded
    # replay since 2026-12-07
    assert "cannot import name 'hf'" in broken["2022/qchem_500_MindTheGap_template::1"]


def test_env_cli_list(capsys):
    from quantum_codegen_eval.cli import main

    assert main(["env", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == ["qhack-2022", "qhack-2023", "qhack-2024"]


def test_era_recipes_are_listed():
    rows = {r["name"]: r for r in eras.list_envs()}
    assert set(rows) == {"qhack-2022", "qhack-2023", "qhack-2024"}
    assert "pennylane==0.21.0" in rows["qhack-2022"]["recipe"]
    assert "autograd==1.6.2" in rows["qhack-2024"]["recipe"]
    with pytest.raises(ValueError, match="qhack-2019"):
        eras.env_python("qhack-2019")


@pytest.mark.slow
@pytest.mark.era
def test_era_envs_have_their_pennylane(sandbox):
    from quantum_codegen_eval.execution import Job

    want = {"qhack-2022": "0.21.0", "qhack-2023": "0.28.0", "qhack-2024": "0.34.0"}
    jobs = [Job("import sys, pennylane, numpy\nprint(pennylane.__version__, sys.version_info[:2])",
                id=name, python=str(eras.env_python(name)), preload=("numpy", "pennylane"))
            for name in want]
    for job, r in zip(jobs, sandbox.run_jobs(jobs), strict=True):
        assert r.status == "ok", r.stderr
        assert r.stdout.split()[0] == want[job.id]
    assert all(row["ready"] for row in eras.list_envs())


@pytest.mark.slow  # creates a virtual environment
def test_env_falls_back_with_a_warning_and_records_it(tmp_path, monkeypatch):
    """No interpreter of the wanted version: the fallback recipe is built on today's Python, a
    warning names what may differ, and the stamp says so. Naming an interpreter overrides."""
    import warnings

    from quantum_codegen_eval.execution import envs

    monkeypatch.setenv("QCE_CACHE", str(tmp_path))
    fallback = envs.Recipe("demo-today", ())
    recipe = envs.Recipe("demo", ("no-such-package==0",), pythons=("2.1",), fallback=fallback,
                         fallback_note="numbers may differ")
    assert envs.find_python(recipe) is None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        python = envs.create(recipe)
    assert [str(w.message) for w in caught if issubclass(w.category, envs.EnvWarning)] == [
        "demo: no Python 2.1 found; built with today's interpreter instead. numbers may differ"]
    stamp = envs.stamp(recipe)
    assert stamp["fallback"] is True and stamp["note"] == "numbers may differ"
    assert stamp["requirements"] == [] and python.exists()
    assert envs.describe(recipe)["ready"] and envs.python_of(recipe, create_missing=False) == python
    # an interpreter named by the user (here: the running one) is taken as is
    monkeypatch.setenv("QCE_PYTHON_DEMO", envs.running_python())
    assert envs.find_python(recipe) == envs.running_python()
    monkeypatch.setenv("QCE_PYTHON_DEMO", str(tmp_path / "nothing"))
    with pytest.raises(FileNotFoundError, match="does not run"):
        envs.find_python(recipe)
    envs.remove(recipe)
    assert not envs.describe(recipe)["ready"]
