"""The QHack judge end to end: real records, real sandbox, era environments.

The completions here are written for these tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.judges.base import code_of, judge_one
from quantum_codegen_eval.judges.qhack import unfilled_solution
from quantum_codegen_eval.verdict import with_error_class

pytestmark = pytest.mark.era  # QHack era environments

ADD_OK = "Here is my solution:\n```python\ndef add_numbers(x, y):\n    return x + y\n```\n"
ADD_WRONG = "def add_numbers(x, y):\n    return x - y\n"


@pytest.fixture(scope="module")
def judge():
    return qhack.make_judge(env="era")


@pytest.fixture(scope="module")
def tutorial_1(qhack_problems):
    return qhack_problems["2023/tutorial_1"]


def test_correct_completion_is_accepted(judge, tutorial_1, sandbox):
    v = judge_one(judge, tutorial_1, ADD_OK, sandbox)
    assert (v.status, v.tests_passed, v.tests_total) == ("AC", 2, 2), v.message
    assert v.details["python"].endswith("/qhack-2023/bin/python")


def test_wrong_completion_names_the_failing_test(judge, tutorial_1, sandbox):
    v = judge_one(judge, tutorial_1, ADD_WRONG, sandbox)
    # x - y is right for [0.2, -0.2]? no: 0.4 != 0.0; and 234 != 566
    assert v.status == "WA" and v.error_class == "reasoning" and v.tests_passed == 0
    assert v.message.startswith("test 0:") and "isn't quite right" in v.message


def test_partial_credit(judge, tutorial_1, sandbox):
    code = "def add_numbers(x, y):\n    return 566 if x == 400 else 1\n"
    v = judge_one(judge, tutorial_1, code, sandbox)
    assert v.status == "WA" and v.partial_credit == 0.5 and [t.passed for t in v.tests] == [
        False, True]


def test_a_top_level_loop_of_the_solution_runs(judge, tutorial_1, sandbox):
    # the solution fills a table with a top-level loop, as a contestant's file would run it
    # (dropped before: the table stayed zero and a right answer was WA)
    code = ("OFFSET = [1, 1]\nfor s in range(2):\n    OFFSET[s] = 0\n\n"
            "def add_numbers(x, y):\n    return x + y + OFFSET[1]\n")
    v = judge_one(judge, tutorial_1, code, sandbox)
    assert (v.status, v.tests_passed) == ("AC", 2), v.message
    v = judge_one(judge, tutorial_1, code.replace("OFFSET[s] = 0", "OFFSET[s] = 2"), sandbox)
    assert (v.status, v.tests_passed) == ("WA", 0), v.message


def test_unfilled_template_is_not_accepted(judge, tutorial_1, sandbox):
    assert judge_one(judge, tutorial_1, tutorial_1.template, sandbox).status != "AC"
    v = judge_one(judge, tutorial_1, unfilled_solution(tutorial_1), sandbox)
    assert v.status == "WA" and v.tests_passed == 0


def test_redefining_check_does_not_pass(judge, tutorial_1, sandbox):
    cheat = ("def add_numbers(x, y):\n    return 0\n\n"
             "def check(solution_output, expected_output):\n    return None\n\n"
             "def run(test_case_input):\n    return '566'\n\n"
             "test_cases = [['[1, 1]', '0']]\n")
    v = judge_one(judge, tutorial_1, cheat, sandbox)
    assert v.status == "WA" and v.tests_passed == 1  # only 0.2 + -0.2 == 0 is right
    assert set(v.details) >= {"env"}


def test_patching_the_comparison_does_not_pass(judge, tutorial_1, sandbox):
    # patched at run time inside the program: check() runs in the trusted job, unpatched
    cheat = ("from pennylane import numpy as np\n\n"
             "def add_numbers(x, y):\n    np.allclose = lambda *a, **k: True\n    return 7\n")
    v = judge_one(judge, tutorial_1, cheat, sandbox)
    assert v.status == "WA" and v.tests_passed == 0 and v.details["check_trust"] == "data"
    assert "isn't quite right" in v.tests[0].message


def test_format_errors(judge, tutorial_1):
    for text, reason in [("I cannot solve this.```text\nno\n```", None),
                         ("```python\ndef add_numbers(x, y)\n    return 1\n```", "syntax_error"),
                         ("```python\ndef add(x, y):\n    return x + y\n```", "missing_functions"),
                         ("```text\nonly prose\n```", "no_code")]:
        v = judge.jobs(tutorial_1, code_of(judge, text))  # the driver's extraction, then the judge
        assert not isinstance(v, list) and v.status == "FORMAT", text
        # the judge reports no class; the one path (judge_one, evaluate) gives it
        assert v.error_class is None and with_error_class(v).error_class == "formatting"
        if reason:
            assert v.details["format"] == reason


def test_hallucinated_api(judge, tutorial_1, sandbox):
    code = "import pennylane as qml\n\ndef add_numbers(x, y):\n    return qml.math.add_all(x, y)\n"
    v = judge_one(judge, tutorial_1, code, sandbox)
    assert v.status == "RE" and v.error_class == "hallucination", v.message


def test_api_misuse(judge, qhack_problems, sandbox):
    rec = qhack_problems["2023/tutorial_2"]
    code = ("import pennylane as qml\ndev = qml.device('default.qubit', wires=2)\n\n"
            "@qml.qnode(dev)\ndef circuit(angles):\n"
            "    qml.RX(wires=0)\n    return qml.probs(wires=[0, 1])\n")
    v = judge_one(judge, rec, code, sandbox)
    assert v.status == "RE" and v.error_class == "api_misuse", (v.message, v.details)


def test_timeout(tutorial_1, sandbox):
    slow = qhack.make_judge(env="era", time_scale=0.01, startup_allowance=3.0)
    code = "def add_numbers(x, y):\n    while True:\n        pass\n"
    v = judge_one(slow, tutorial_1, code, sandbox)
    assert v.status == "TLE" and v.error_class == "timeout"


def test_script_format_2022(judge, qhack_problems, sandbox):
    rec = qhack_problems["2022/algorithms_100_DeutschJozsa_template"]
    # one Deutsch-Jozsa query (a program that counts what the oracle queues instead, right on
    # both public tests as the contest ran it, now sees a placeholder: test_oracle_queries.py)
    code = ("import pennylane as qml\n\n\ndef deutsch_jozsa(oracle):\n"
            "    dev = qml.device('default.qubit', wires=3, shots=1)\n\n"
            "    @qml.qnode(dev)\n    def circuit():\n        qml.PauliX(wires=2)\n"
            "        for w in range(3):\n            qml.Hadamard(wires=w)\n"
            "        oracle()\n        qml.Hadamard(wires=0)\n        qml.Hadamard(wires=1)\n"
            "        return qml.sample(wires=[0, 1])\n\n"
            "    return 'balanced' if any(circuit()) else 'constant'\n")
    v = judge_one(judge, rec, code, sandbox)
    assert v.status == "AC", v.message
    wrong = code.replace("'balanced' if", "'constant' if").replace("else 'constant'",
                                                                   "else 'balanced'")
    v = judge_one(judge, rec, wrong, sandbox)
    assert v.status == "WA" and v.tests[0].expected == "balanced"


def test_current_mode_runs_on_todays_pennylane(tutorial_1, qhack_problems, sandbox):
    current = qhack.make_judge(env="current")
    v = judge_one(current, tutorial_1, ADD_OK, sandbox)
    assert v.status == "AC" and v.details["env"] == "current"
    # a replayed circuit under the official (shimmed: `.tape`) check in the trusted job
    empty = "import pennylane as qml\n\ndef U():\n    qml.Identity(wires=0)\n"
    v = judge_one(current, qhack_problems["2024/three_shipping_companies"], empty, sandbox)
    assert (v.status, v.details["check_trust"]) == ("WA", "circuit") and "Wrong answer" in v.message
    with pytest.raises(ValueError, match="era"):
        qhack.make_judge(env="2019")


def test_cli_judge(qhack_data: Path, tmp_path: Path, capsys):
    pytest.importorskip("quantum_codegen_eval.feedback")  # qce judge prints feedback too
    from quantum_codegen_eval.cli import main

    f = tmp_path / "solution.py"
    f.write_text(ADD_OK)
    code = main(["judge", "qhack", "2023/tutorial_1", str(f), "--data-dir", str(qhack_data),
                 "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "AC" and out["tests_total"] == 2
    f.write_text(ADD_WRONG)
    assert main(["judge", "qhack", "2023/tutorial_1", str(f), "--data-dir", str(qhack_data),
                 "--json", "--env", "current"]) == 1


def test_forged_result_file_is_rejected(judge, qhack_problems, sandbox):
    # a custom-check challenge: the solution writes a passing result itself and exits early
    rec = qhack_problems["2023/tutorial_4"]
    name = rec.solution_functions[0]
    code = (f"def {name}(*args, **kwargs):\n    import json, os\n"
            "    with open('qce_result.json', 'w') as fh:\n"
            "        json.dump({'output': {'x': 1}, 'check': {'passed': True}}, fh)\n"
            "    os._exit(0)\n")
    v = judge_one(judge, rec, code, sandbox)
    assert v.status == "WA" and v.tests_passed == 0, v.message
    assert "malformed output" in v.tests[0].message


# Bernstein-Vazirani with the template's noisy Hadamards around its oracle (written for this test)
TIMBITS_SOLUTION = '''
@qml.qnode(dev)
def noisy_BernsteinVazirani(lmbda):
    for wire in range(5):
        noisy_Hadamard(lmbda, wire)
    qml.QubitUnitary(oracle_matrix, wires=range(5))
    for wire in range(5):
        noisy_Hadamard(lmbda, wire)
    return [qml.expval(qml.PauliZ(i)) for i in range(5)]
'''


def test_repeating_the_given_code_changes_nothing(judge, qhack_problems, sandbox):
    # the completion repeats the template's given code (read from the record, not copied here):
    # its `oracle_matrix = np.eye(2**5)` must not replace the oracle the given loop filled in
    rec = qhack_problems["2023/a_tale_of_timbits_100"]
    given = "\n".join(c["code"] for c in rec.chunks if c["kind"] in ("import", "given"))
    assert "oracle_matrix = np.eye" in given
    whole = "\n".join(TIMBITS_SOLUTION if c["kind"] == "editable" else c["code"]
                      for c in rec.chunks)
    for completion in (TIMBITS_SOLUTION, given + "\n" + TIMBITS_SOLUTION, whole):
        v = judge_one(judge, rec, f"```python\n{completion}\n```", sandbox)
        assert (v.status, v.tests_passed) == ("AC", 2), (v.message, completion[:300])
    wrong = TIMBITS_SOLUTION.replace("oracle_matrix", "np.eye(2**5)")
    v = judge_one(judge, rec, given + "\n" + wrong, sandbox)
    assert (v.status, v.tests_passed) == ("WA", 0), v.message


def test_no_expected_output_is_in_any_program(qhack_problems):
    from quantum_codegen_eval.judges.qhack import program_parts

    found = set()
    for pid, rec in qhack_problems.items():
        text = "".join(src for _, src in program_parts(rec, unfilled_solution(rec))) + rec.driver
        for t in rec.tests:
            want = t["expected"].strip()
            if len(want) >= 6 and want != "No output" and want in text:
                found.add((pid, t["name"]))
    # a coincidence: the check itself calls or_circuit([0,0,0]), whose expected state is [0,0,0]
    assert found == {("2024/to_view_or_not_to_view", "test 0")}
