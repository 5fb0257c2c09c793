"""The QHack judge's job programs (judges/qhack/jobs/) as the scripts the sandbox runs: built
without importing a framework in the judge, run here in a plain isolated interpreter (the era
runs are in test_reference_solutions.py and the other era tests). The programs here are our own."""

from __future__ import annotations

import json
import subprocess
import sys

from quantum_codegen_eval.judges.qhack import payload
from quantum_codegen_eval.judges.qhack.runner import (
    CHECK_FILE,
    CHECKED_FILE,
    JOB_FILE,
    RESULT_FILE,
    program_job,
    result_name,
    trusted_job,
)


def _run(script: str, cwd) -> None:
    # -I: the working directory holds no copy of the package; only the script can provide it
    subprocess.run([sys.executable, "-I", "-c", script], cwd=cwd, check=True, timeout=120,
                   capture_output=True)


def test_building_the_job_scripts_imports_no_framework():
    probe = ("import sys\n"
             "from quantum_codegen_eval.judges.qhack import runner\n"
             "runner.program_job()\n"
             "runner.trusted_job([], {'kind': 'official'}, shims=True)\n"
             "print(sorted(m for m in ('pennylane', 'qiskit') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.strip() == "[]"


def test_program_job_writes_the_raw_output_and_the_live_check(tmp_path):
    harness = ("import json\n\ndef run(test_input):\n    return json.dumps(solve(test_input))\n\n"
               "def check(out, expected):\n    assert json.loads(out) == 6, 'not six'\n")
    spec = {"parts": [("<solution>", "def solve(x):\n    return 2 * int(x)\n"),
                      ("<qhack-harness>", harness)],
            "format": "notebook", "driver": "", "input": "3", "skip_run": False,
            "live_check": True, "emit": None, "record": None, "shims": False, "seed": 5}
    (tmp_path / JOB_FILE).write_text(json.dumps(spec))
    _run(program_job().source, tmp_path)
    result = json.loads((tmp_path / RESULT_FILE).read_text())
    assert payload.decode(result["output"]) == "6"
    assert result["check"] == {"passed": True, "message": ""}
    assert not (tmp_path / JOB_FILE).exists()  # the input is removed once read


def test_program_job_reports_where_the_solution_raised(tmp_path):
    spec = {"parts": [("<solution>", "def run(x):\n    return 1 / 0\n\ndef check(a, b):\n"
                                     "    pass\n")],
            "format": "notebook", "driver": "", "input": "", "skip_run": False,
            "live_check": False, "emit": None, "record": None, "shims": False, "seed": 0}
    (tmp_path / JOB_FILE).write_text(json.dumps(spec))
    _run(program_job().source, tmp_path)
    err = json.loads((tmp_path / RESULT_FILE).read_text())["error"]
    assert (err["phase"], err["type"]) == ("run", "ZeroDivisionError")
    assert err["frames"][-1][0] == "<solution>"


def _trusted(tmp_path, harness, check, tests):
    """Run the trusted job on ``tests`` (each test's ``output`` handed over in its own result
    file, as the judge hands the program's)."""
    for i, t in enumerate(tests):
        (tmp_path / result_name(i)).write_text(json.dumps({"output": t.pop("output")}))
        t["result"] = result_name(i)
    (tmp_path / CHECK_FILE).write_text(json.dumps({"seed": 1, "tests": tests}))
    _run(trusted_job(harness, check).source, tmp_path)
    return json.loads((tmp_path / CHECKED_FILE).read_text())["outcomes"]


def test_trusted_job_runs_the_official_check_on_decoded_outputs(tmp_path):
    harness = ("import json\n\ndef check(solution_output, expected_output):\n"
               "    assert json.loads(solution_output) == json.loads(expected_output), 'differs'\n")
    tests = [{"output": payload.encode("[1, 2]"), "expected": "[1, 2]"},
             {"output": payload.encode("[1, 3]"), "expected": "[1, 2]"},
             {"output": payload.encode(7), "expected": "[1, 2]"}]
    # a guarded part (a template statement) that fails is skipped; the others run in order
    parts = [(harness, False), ("limit = undefined_name\n", True), ("import json\n", True)]
    got = _trusted(tmp_path, parts, {"kind": "official"}, tests)
    assert [o["passed"] for o in got] == [True, False, False]
    assert got[1]["message"] == "differs"
    assert got[2].get("raised") and got[2]["message"].startswith("TypeError")


def test_trusted_job_compares_with_the_records_tolerance(tmp_path):
    rule = {"func": "allclose", "rtol": 0.0, "atol": 0.01}
    tests = [{"output": payload.encode("[0.5, 1.004]"), "expected": "[0.5, 1.0]"},
             {"output": payload.encode("[0.5, 1.02]"), "expected": "[0.5, 1.0]"}]
    got = _trusted(tmp_path, [], {"kind": "compare", "rule": rule}, tests)
    assert [o["passed"] for o in got] == [True, False]
    assert got[1]["message"] == "output not within tolerance of the expected value"
