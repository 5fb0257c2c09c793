"""The QCoder judge pipeline: every verdict status, in the order RE -> UME -> UGE -> DLE -> WA/AC."""

from __future__ import annotations

import json

import pytest

from quantum_codegen_eval.benchmarks.qcoder import make_judge
from quantum_codegen_eval.judges.qcoder import QCoderJudge, static_imports
from quantum_codegen_eval.judges.qcoder.specs import get_spec

pytestmark = pytest.mark.upstream

H = "from qiskit import QuantumCircuit\n\n"
A1 = H + "def solve():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    return qc\n"

CASES = [  # (problem, completion, expected status, check on the verdict)
    ("QPC001_A1", "Here you go:\n```python\n" + A1 + "```\nDone.", "AC", None),
    ("QPC001_A1", H + "def solve():\n    raise ValueError('boom')\n", "RE", "boom"),
    ("QPC001_A1", "def solve(:\n    pass\n", "RE", "SyntaxError"),
    ("QPC001_A1", H + "def build():\n    return QuantumCircuit(1)\n", "RE", "does not define a function solve"),
    ("QPC001_A1", H + "def solve():\n    return 1\n", "RE", "returned int, not a QuantumCircuit"),
    ("QPC001_A1", "import os\n" + A1, "UME", "import os"),
    ("QPC001_A1", "from qiskit.circuit.library import QFT\n" + A1, "UME", "QFT"),
    ("QPC001_A1", A1.replace("    qc = QuantumCircuit(1)\n",
                             "    getattr(__builtins__, '__imp' + 'ort__')('socket')\n    qc = QuantumCircuit(1)\n"),
     "UME", "__builtins__"),
    ("QPC002_B3", H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.swap(0, 1)\n    return qc\n", "UGE", "SwapGate"),
    ("QPC001_A1", H + "def solve():\n    qc = QuantumCircuit(1, 1)\n    qc.h(0)\n    qc.measure(0, 0)\n    return qc\n",
     "UGE", "classical bits"),
    ("QPC001_A3", H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.initialize([2 ** -0.5, 0, 0, 2 ** -0.5])\n"
     "    return qc\n", "UGE", "initialize"),
    ("QPC002_A5", get_spec("QPC002_A5").extra["dle"], "DLE", "exceeds 6"),
    ("QPC003_Ex1", get_spec("QPC003_Ex1").extra["dle"], "DLE", "applications"),
    # more qubits than the problem allows: the service's QLE ("Qubits Limit Exceeded"); fewer: WA
    ("QPC001_A1", H + "def solve():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    return qc\n", "QLE", "2 qubits"),
    ("QPC001_A2", H + "def solve(n):\n    qc = QuantumCircuit(max(n - 1, 0))\n    return qc\n", "WA", "qubits"),
    ("QPC001_A1", "   ", "FORMAT", "no code"),
    ("QPC001_A2", "from qiskit.circuit.library.standard_gates import HGate\n" + H +
     "def solve(n):\n    qc = QuantumCircuit(n)\n    for q in range(n):\n        qc.append(HGate(), [q])\n    return qc\n",
     "AC", None),
]


@pytest.fixture(scope="module")
def verdicts(qsandbox, qcoder_records, judge_many):
    judge = make_judge()  # with the benchmark's extraction rule
    return judge_many(qsandbox, judge, [(qcoder_records[p], c) for p, c, _, _ in CASES])


@pytest.mark.parametrize("i", range(len(CASES)))
def test_status(verdicts, i):
    pid, _, status, text = CASES[i]
    v = verdicts[i]
    assert v.status == status, (pid, v.status, v.message)
    if text:
        assert text in v.message, v.message
    json.dumps(v.to_dict(), default=str)  # JSON-serialisable
    rep = v.details["report"]
    assert set(rep) == {"runtime_error", "gate_violation", "depth_violation", "state_match"}
    assert rep["state_match"] == (status == "AC")
    assert rep["runtime_error"] == (status == "RE")
    assert rep["gate_violation"] == (status == "UGE")
    assert rep["depth_violation"] == (status == "DLE")


def test_details_name_the_failure(verdicts):
    dle = verdicts[11]
    assert dle.details["depth"] > 6 and dle.details["depth_limit"] == 6
    assert dle.details["first_failing"].startswith("n=")
    uge = verdicts[8]
    assert uge.details["violating_gate"] == "swap"
    assert verdicts[0].tests_passed == verdicts[0].tests_total == 1


def test_wrong_answer_reports_first_failing_case(qsandbox, qcoder_records, judge_many):
    # secret="": the public draw (the judge's secret would pick n=10's sampled inputs at random,
    # and whether they include one this wrong solution gets wrong would vary)
    judge = QCoderJudge(secret="")
    spec = get_spec("QPC002_B2")
    (v,) = judge_many(qsandbox, judge, [(qcoder_records["QPC002_B2"], spec.wrong[0])])
    assert v.status == "WA" and 0 < v.tests_passed < v.tests_total
    assert v.details["first_failing"].startswith("n=") and v.details["fidelity"] < 0.99
    assert v.tests[[t.passed for t in v.tests].index(False)].name == v.details["first_failing"]


def test_timeout(qsandbox, qcoder_records, judge_many):
    judge = QCoderJudge(timeout=3)
    (v,) = judge_many(qsandbox, judge, [(qcoder_records["QPC001_A2"],
                                         H + "def solve(n):\n    while True:\n        pass\n")])
    assert v.status == "TLE"


def test_static_imports_rules():
    allowed = ["math", "qiskit.QuantumCircuit", "qiskit.QuantumRegister",
               "qiskit.circuit.library.standard_gates", "numpy", "scipy"]
    ok = ("import math\nimport numpy as np\nfrom scipy.linalg import expm\n"
          "from qiskit import QuantumCircuit, QuantumRegister\n"
          "from qiskit.circuit.library.standard_gates import XGate\nfrom qiskit.circuit.library import HGate\n")
    assert static_imports(ok, allowed) == []
    assert static_imports("import qiskit\nfrom qiskit import transpile\nfrom . import x\n", allowed) == [
        "import qiskit", "from qiskit import transpile", "from . import ..."]


def test_cli_judge_json(qcoder_data, tmp_path, capsys):
    from quantum_codegen_eval.cli import main

    sol = tmp_path / "solution.py"
    sol.write_text(get_spec("QPC002_A5").reference)
    assert main(["judge", "qcoder", "QPC002_A5", str(sol), "--data-dir", str(qcoder_data), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "AC" and out["tests_total"] == 14 and out["feedback"] == ""


@pytest.mark.upstream
def test_status_set_is_the_services(qcoder_source):
    """The service's statuses in the order its own client declares them (upstream
    ``codes/generate_and_judge.py``); every final one is a verdict status with an error class,
    WJ (waiting for judging) is not final; QLE is "Qubits Limit Exceeded" there."""
    import re

    from quantum_codegen_eval.judges.qcoder.judge import SERVICE_STATUSES
    from quantum_codegen_eval.verdict import STATUS_CLASSES, STATUSES, classify_error

    text = (qcoder_source / "codes" / "generate_and_judge.py").read_text(encoding="utf-8")
    declared = re.findall(r'^StatusCode\w+\s*=\s*"(\w+)"(.*)$', text, re.M)
    assert tuple(code for code, _ in declared) == SERVICE_STATUSES
    assert "Qubits Limit Exceeded" in dict(declared)["QLE"]
    assert "WJ" not in STATUSES
    for status in SERVICE_STATUSES[1:]:
        assert status in STATUSES
        assert status == "AC" or classify_error(status, None) is not None
    assert STATUS_CLASSES["QLE"] == "reasoning"
