"""A package a job preloads that its interpreter cannot import is the machine's gap, not the
program's error: the sandbox raises :class:`PackageMissing` instead of running the job (where its
program would fail with ``ModuleNotFoundError`` and be judged for it), and ``evaluate`` stops with
one message naming the fix. Found by a fresh user: a bare ``pip install`` of the wheel judged
every Qiskit sample RE."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import pytest

from quantum_codegen_eval import evaluate
from quantum_codegen_eval.evaluate import SetupIncomplete
from quantum_codegen_eval.execution import ExecutorError, Job, PackageMissing, Sandbox
from quantum_codegen_eval.hints import install_command, missing_package_message


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory):
    """A fresh venv without pip: numpy and the quantum packages are missing; ``broken_mod``
    raises on import, ``memory_mod`` runs out of memory."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    (site,) = (venv / "lib").glob("python3*/site-packages")
    (site / "broken_mod.py").write_text("raise RuntimeError('half-installed')\n")
    (site / "memory_mod.py").write_text("raise MemoryError\n")
    return str(venv / "bin" / "python")


@pytest.mark.parametrize("fresh", [False, True])
def test_a_preload_that_does_not_import_stops_the_job(fresh):
    with Sandbox(workers=1, preload=("json", "qce_no_such_module"), fresh=fresh,
                 wall_time=20) as sb:
        with pytest.raises(PackageMissing) as info:
            sb.run("print('ran')")
        with pytest.raises(PackageMissing):  # through the pool as well
            sb.submit(Job("print('ran')")).result()
        assert sb.run("print('ran')", preload=("json",)).stdout == "ran\n"  # others still run
    exc = info.value
    assert list(exc.missing) == ["qce_no_such_module"]
    assert exc.missing["qce_no_such_module"].startswith("ModuleNotFoundError")
    assert exc.own and isinstance(exc, ExecutorError)
    assert str(exc).startswith(f"{sys.executable} on ")


def test_another_interpreter_names_each_missing_and_broken_package(bare_python):
    with Sandbox(workers=1, preload=("json", "numpy", "broken_mod"), python=bare_python,
                 wall_time=20) as sb:
        with pytest.raises(PackageMissing) as info:
            sb.run_jobs(["print(1)", "print(2)"])
    exc = info.value
    assert (exc.python, exc.own) == (bare_python, False)
    assert exc.missing == {"numpy": "ModuleNotFoundError: No module named 'numpy'",
                           "broken_mod": "RuntimeError: half-installed"}
    # a cluster's worker raises it remotely: it must survive pickling, fields and all
    again = pickle.loads(pickle.dumps(exc))
    assert (again.python, again.missing, again.worker, again.own, str(again)) == (
        exc.python, exc.missing, exc.worker, exc.own, str(exc))


def test_running_out_of_memory_on_import_fails_that_job_only(bare_python):
    """A MemoryError is the machine's moment, not its set-up: that job is the sandbox's failure
    (``crashed``, as when it cannot set a run up), the run goes on."""
    with Sandbox(workers=1, preload=("json", "memory_mod"), python=bare_python,
                 wall_time=20) as sb:
        r = sb.run("print(1)")
        assert sb.run("print(2)", preload=("json",)).stdout == "2\n"
    assert r.status == "crashed"
    assert "could not import memory_mod: MemoryError" in r.stderr


def test_evaluate_stops_with_the_fix_and_keeps_what_it_decided(bare_python, tmp_path):
    """The sample benchmark's Qiskit half in an interpreter without Qiskit: no sample is judged
    RE; the run stops naming the packages; the sample decided without running (empty) is kept
    in the store."""
    predictions = {"sample/qk_bell_circuit": ["print(1)", ""]}
    store = tmp_path / "results.jsonl"
    with Sandbox(workers=1, python=bare_python) as sb, pytest.raises(SetupIncomplete) as info:
        evaluate(predictions, "sample", "qiskit", sandbox=sb, store=store)
    message = str(info.value)
    assert message.startswith(f"sample cannot be judged here: {bare_python} on ")
    assert "cannot import 'numpy', 'qiskit', 'qiskit_aer'" in message
    assert f"install numpy, qiskit, qiskit_aer into {bare_python}" in message
    assert message.endswith(f"1 of 2 results kept in {store}")
    stored = [json.loads(line)["verdict"]["status"] for line in store.read_text().splitlines()]
    assert stored == ["FORMAT"]


def test_the_fix_is_the_extra_that_installs_the_package():
    """Read from this package's installed metadata (pyproject's extras)."""
    assert install_command(["qiskit"]) == 'pip install "quantum-codegen-eval[qiskit]"'
    assert install_command(["qiskit_aer"]) == 'pip install "quantum-codegen-eval[qiskit]"'
    assert install_command(["pennylane", "qiskit", "qiskit_aer"]) == (
        'pip install "quantum-codegen-eval[pennylane,qiskit]"')
    assert install_command(["matplotlib.pyplot"]) == 'pip install "quantum-codegen-eval[plots]"'
    assert install_command(["qiskit", "numpy"]) == (
        "pip install --force-reinstall quantum-codegen-eval")
    assert install_command(["qiskit", "qce_no_such_module"]) == (
        'pip install "quantum-codegen-eval[qiskit]" && pip install qce-no-such-module')
    assert missing_package_message("/p/python", ["qiskit", "qiskit_aer"], own=True) == (
        'install with: pip install "quantum-codegen-eval[qiskit]"')
    assert missing_package_message("/e/python", ["pennylane"], own=False,
                                   environment="qhack-2023") == (
        "recreate the environment: qce env remove qhack-2023 && qce env create qhack-2023")
