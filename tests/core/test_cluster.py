"""Judging on a real dask.distributed LocalCluster (separate worker processes): the same verdicts
as the local pool, a worker killed mid-run loses nothing, a worker without an interpreter stops
the run at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace

import pytest
import refine_script as script
from ctrl_c import interrupt_qce, write_predictions
from sample_answers import BELL, RIGHT, SLEEP

from quantum_codegen_eval import evaluate
from quantum_codegen_eval.benchmarks import sample
from quantum_codegen_eval.cluster import ClusterError
from quantum_codegen_eval.evaluate import SetupIncomplete
from quantum_codegen_eval.execution import InterpreterMissing, Job, Sandbox
from quantum_codegen_eval.refinement import refine_all

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.slow


def _rows():
    rows = [json.loads(line) for line in open(sample.predictions_path()) if line.strip()]
    return [r for r in rows if r["id"].startswith("sample/qk_")]


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as c:
        yield c


@pytest.fixture(scope="module")
def expected():
    with Sandbox(workers=2) as sb:
        report = evaluate(_rows(), "sample", "qiskit", k=(1,), sandbox=sb)
    return {r["key"]: (r["status"], r["error_class"], r["tests_passed"]) for r in report.per_sample}


def _verdicts(report):
    return {r["key"]: (r["status"], r["error_class"], r["tests_passed"]) for r in report.per_sample}


def test_same_verdicts_as_the_local_pool(cluster, expected, tmp_path):
    store = tmp_path / "results.jsonl"
    report = evaluate(_rows(), "sample", "qiskit", k=(1,), scheduler=cluster.scheduler_address,
                      store=store)
    assert _verdicts(report) == expected
    assert {"AC", "WA", "RE"} <= {v[0] for v in expected.values()}
    assert len(store.read_text().splitlines()) == len(expected)
    with distributed.Client(cluster) as client:  # a Client or its executor work alike
        again = evaluate(_rows(), "sample", "qiskit", k=(1,), executor=client.get_executor())
    assert _verdicts(again) == expected


def test_a_worker_killed_mid_run_loses_nothing(expected, tmp_path):
    """SIGKILL the worker process running a job: dask runs the job again elsewhere and every
    sample gets the verdict the local pool gives. (A cluster of its own: whether and when the
    nanny brings the killed worker back is dask's business, not the next test's.)"""
    store = tmp_path / "results.jsonl"
    killed: list[int] = []
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        pids = client.run(os.getpid)

        def kill_a_busy_worker():
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline and not killed:
                busy = [w for w, keys in client.processing().items() if keys and w in pids]
                if busy:
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    killed.append(pids[busy[0]])
                    return
                time.sleep(0.05)

        killer = threading.Thread(target=kill_a_busy_worker, daemon=True)
        killer.start()
        report = evaluate(_rows(), "sample", "qiskit", k=(1,), executor=client.get_executor(),
                          store=store)
        killer.join(timeout=5)
    assert killed, "no worker was busy: the kill did not happen"
    assert _verdicts(report) == expected
    records = [json.loads(line) for line in store.read_text().splitlines()]
    assert sorted(r["key"] for r in records) == sorted(expected)


class _ElsewhereJudge:
    """The real sample judge whose jobs name an interpreter no worker has (or, with
    ``preload``, preload a module no worker has)."""

    deterministic = False
    benchmark = "sample"

    def __init__(self, python: str | None = None, preload: str | None = None):
        self.inner = sample.BENCHMARK.make_judge()
        self.python, self.preload = python, preload

    def _moved(self, out):
        if not isinstance(out, list):
            return out
        if self.preload:
            return [replace(j, preload=(*(j.preload or ()), self.preload)) for j in out]
        return [replace(j, python=self.python) for j in out]

    def jobs(self, problem, completion):
        return self._moved(self.inner.jobs(problem, completion))

    def decide(self, problem, completion, results):
        return self._moved(self.inner.decide(problem, completion, results))


def test_a_worker_without_the_interpreter_stops_the_run_at_once(cluster, tmp_path):
    missing = str(tmp_path / "env" / "bin" / "python")
    store = tmp_path / "results.jsonl"
    t0 = time.monotonic()
    with pytest.raises(ClusterError) as info:
        evaluate(_rows(), "sample", "qiskit", k=(1,), scheduler=cluster.scheduler_address,
                 judge=_ElsewhereJudge(missing), store=store)
    message = str(info.value)
    assert f"has no {missing}" in message
    assert all(w in message for w in cluster.scheduler_info["workers"])  # each worker named
    assert "results kept" in message and str(store) in message
    assert time.monotonic() - t0 < 120  # before judging anything


def test_a_worker_without_a_preloaded_package_stops_the_run_naming_it(cluster, tmp_path):
    """The worker's sandbox raises PackageMissing; it crosses dask to the client whole."""
    store = tmp_path / "results.jsonl"
    with pytest.raises(SetupIncomplete) as info:
        evaluate(_rows(), "sample", "qiskit", k=(1,), scheduler=cluster.scheduler_address,
                 judge=_ElsewhereJudge(preload="qce_no_such_module"), store=store)
    message = str(info.value)
    assert f"{sys.executable} on " in message
    assert "cannot import 'qce_no_such_module' (ModuleNotFoundError" in message
    assert "install with: pip install qce-no-such-module" in message
    assert message.endswith(f"results kept in {store}")
    stored = [json.loads(line)["verdict"]["status"] for line in store.read_text().splitlines()]
    assert "RE" not in stored  # no program was blamed for it


def test_a_job_reaching_a_worker_without_its_interpreter_is_no_result(cluster, tmp_path):
    """A worker that joined after the pre-flight check: the job raises, never a verdict."""
    with distributed.Client(cluster) as client:
        sb = Sandbox(executor=client.get_executor())
        try:
            future = sb.submit(Job("print(1)", id="j", python=str(tmp_path / "python")))
            with pytest.raises(InterpreterMissing) as info:
                future.result(timeout=120)
        finally:
            sb.close()
    assert str(tmp_path / "python") in str(info.value)


def test_cli_scheduler_unreachable_is_one_line_exit_4(tmp_path):
    preds = tmp_path / "p.jsonl"
    preds.write_text("\n".join(json.dumps(r) for r in _rows()[:2]) + "\n")
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3s"}
    proc = subprocess.run(
        [sys.executable, "-m", "quantum_codegen_eval", "evaluate", str(preds), "--benchmark",
         "sample", "--config", "qiskit", "--out", str(tmp_path / "out"), "--no-progress",
         "--scheduler", "tcp://127.0.0.1:9"], capture_output=True, text=True, env=env,
        timeout=300)
    assert proc.returncode == 4, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "cannot reach the dask scheduler" in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr
    assert "resume with: qce evaluate" in lines[0]


def test_resume_on_a_new_cluster_keeps_what_the_first_one_stored(cluster, expected, tmp_path):
    """The first cluster judges part of the run and goes away; the resumed run on another
    cluster keeps every stored record as it was and judges only the rest."""
    store = tmp_path / "results.jsonl"
    rows = _rows()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as first:
        evaluate(rows[:4], "sample", "qiskit", k=(1,), scheduler=first.scheduler_address,
                 store=store)
    kept = store.read_bytes()
    report = evaluate(rows, "sample", "qiskit", k=(1,), scheduler=cluster.scheduler_address,
                      store=store, resume=True)
    assert _verdicts(report) == expected
    assert store.read_bytes().startswith(kept)
    keys = [json.loads(line)["key"] for line in store.read_text().splitlines()]
    assert sorted(keys) == sorted(expected)  # each once: nothing judged twice


def test_ctrl_c_on_a_cluster_run_keeps_results_and_returns_promptly(cluster, tmp_path):
    """The remote jobs still running are cancelled, not waited for (they sleep 120 s)."""
    preds = write_predictions(tmp_path / "p.jsonl", [RIGHT, SLEEP])
    out = tmp_path / "out"
    store = out / "results.jsonl"
    args = ["evaluate", str(preds), "--benchmark", "sample", "--config", "qiskit", "--out",
            str(out), "-k", "1", "--no-progress", "--scheduler", cluster.scheduler_address]
    # the sleeper is running on a worker 3 s after the first result
    stopped = interrupt_qce(args, store, results=1, settle=3, timeout=100)
    assert stopped.returncode == 130, stopped.stderr
    assert "1 of 2 results kept" in stopped.stderr and "--resume" in stopped.stderr
    assert "Traceback" not in stopped.stderr
    assert stopped.seconds < 60, stopped.seconds
    assert stopped.stored_keys(store) == [f"{BELL}#0"]


def test_refine_all_judges_its_rounds_on_the_cluster(cluster):
    """evaluate's ``scheduler`` reaches every round of refine_all."""
    plan = {BELL: ("wr",)}  # wrong, then repaired
    problems = {pid: t for pid, t in script.problems().items() if pid in plan}
    report = refine_all(script.ScriptedGenerate(plan), "sample", "qiskit", rounds=1,
                        problems=problems, metrics=(), scheduler=cluster.scheduler_address)
    assert report.refinement["solved_by_round"] == [0, 1]
    assert [r["status"] for r in report.refinement["histories"][0]["rounds"]] == ["WA", "AC"]
