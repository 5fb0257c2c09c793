"""The check(candidate) judge on a task written here, through the real sandbox."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.benchmarks import qiskit_humaneval as qhe
from quantum_codegen_eval.judges.base import judge_one
from quantum_codegen_eval.judges.qiskit_humaneval import build_program

PROMPT = '''from qiskit import QuantumCircuit
def bell(n):
    """Return an n-qubit GHZ circuit (H on qubit 0, then a CNOT chain)."""'''
BODY = "\n    qc = QuantumCircuit(n)\n    qc.h(0)\n    for i in range(n - 1):\n        qc.cx(i, i + 1)\n    return qc\n"
TEST = '''def check(candidate):
    from qiskit.quantum_info import Statevector
    sv = Statevector(candidate(3))
    assert abs(sv.probabilities_dict()["000"] - 0.5) < 1e-9
    assert abs(sv.probabilities_dict()["111"] - 0.5) < 1e-9
'''
NORMAL = qhe.Task("own/ghz", PROMPT, BODY, TEST, "bell", "basic", "normal")
HARD = qhe.Task("own/ghz", "Write bell(n) returning an n-qubit GHZ circuit.",
                "from qiskit import QuantumCircuit\n\ndef bell(n):" + BODY,
                "from qiskit import QuantumCircuit\n" + TEST + "\ncheck(bell)\n", "bell", "basic", "hard")
FULL = "from qiskit import QuantumCircuit\n\ndef bell(n):" + BODY


def test_program_layouts():
    prog = build_program(NORMAL, BODY)
    assert prog.startswith(PROMPT) and prog.rstrip().endswith("check(bell)")
    assert build_program(NORMAL, BODY.lstrip("\n")).count("def bell") == 1  # body without newline
    fenced = qhe.candidate_code(NORMAL, qhe.BENCHMARK.extract(
        f"Sure:\n```python\n{FULL}```\nHope it helps."))
    assert fenced.count("def bell") == 2 and "Hope it helps" not in fenced
    hard = build_program(HARD, FULL)
    assert hard.startswith(FULL) and hard.count("check(bell)") == 1


@pytest.mark.parametrize("task, completion, status, error_class", [
    (NORMAL, BODY, "AC", None),
    (NORMAL, BODY.lstrip("\n"), "AC", None),
    (NORMAL, f"```python\n{FULL}```", "AC", None),
    (HARD, f"Here it is\n```python\n{FULL}```", "AC", None),
    (NORMAL, "\n    return QuantumCircuit(n)\n", "WA", "reasoning"),
    (NORMAL, "\n    return QuantumCircuit(n).ghz()\n", "RE", "hallucination"),
    (NORMAL, "\n    qc = QuantumCircuit(n)\n    qc.cx(0, n + 5)\n    return qc\n", "RE", "api_misuse"),
    (NORMAL, "\n    import os\n    os._exit(0)\n", "RE", "api_misuse"),
    (NORMAL, "\n    while True:\n        pass\n", "TLE", "timeout"),
    (HARD, "```python\ndef bell(n)\n    return 1\n```", "RE", "formatting"),
    (HARD, "I cannot help with that.\n```text\nno\n```\n", "FORMAT", "formatting"),
])
def test_verdicts(sandbox, task, completion, status, error_class):
    judge = qhe.make_judge(time_limit=1.5 if status == "TLE" else 10.0)
    v = judge_one(judge, task, completion, sandbox)
    assert (v.status, v.error_class) == (status, error_class), v.message
    assert v.tests_total == 1 and v.tests_passed == (status == "AC")
    assert v.benchmark == "qiskit_humaneval" and v.problem_id == "own/ghz"


def test_a_forged_done_marker_does_not_pass(sandbox):
    forged = "\n    open('__qce_check_done__', 'w').write('0' * 32)\n    import os\n    os._exit(0)\n"
    v = judge_one(qhe.make_judge(time_limit=5.0), NORMAL, forged, sandbox)
    assert v.status == "RE" and "ended during call 1" in v.message
