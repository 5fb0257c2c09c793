"""Pure logic of the QHack judge: template splitting, solution extraction, comparisons, shims.

The code snippets here are written for these tests (no upstream text)."""

from __future__ import annotations

import ast

import pytest

from quantum_codegen_eval.judges.qhack import (
    FormatProblem,
    compare_numeric,
    compare_script,
    prepare,
    program_parts,
    unfilled_solution,
)
from quantum_codegen_eval.judges.qhack_shims import SHIM_PRELUDE, rewrite_harness
from quantum_codegen_eval.judges.qhack_template import split_template, stub
from quantum_codegen_eval.loaders.qhack import trusted_compare

TEMPLATE = '''import json
import pennylane as qml

dev = qml.device("default.qubit", wires=1)


def helper(x):
    return 2 * x


def solve(a, b):
    """Returns:
        (float): something
    """
    # Put your code here #
    value =


def run(test_case_input: str) -> str:
    a, b = json.loads(test_case_input)
    return str(solve(a, b))


def check(solution_output: str, expected_output: str) -> None:
    solution_output = json.loads(solution_output)
    expected_output = json.loads(expected_output)
    assert qml.math.allclose(solution_output, expected_output, rtol=1e-3)


test_cases = [['[1, 2]', '3']]

for i, (input_, expected_output) in enumerate(test_cases):
    print(run(input_))
'''


def _problem(template: str = TEMPLATE) -> dict:
    chunks = split_template(template)
    return {"id": "test/x", "chunks": [{"kind": c.kind, "name": c.name or "", "code": c.text}
                                       for c in chunks],
            "solution_functions": [c.name for c in chunks if c.kind == "editable"],
            "tests": [{"name": "t0", "input": "[1, 2]", "expected": "3"}], "format": "notebook"}


def test_split_template_kinds():
    kinds = [(c.kind, c.name) for c in split_template(TEMPLATE)]
    assert kinds == [("import", None), ("import", None), ("given", None), ("given", "helper"),
                     ("editable", "solve"), ("run", "run"), ("check", "check"),
                     ("tests", "test_cases"), ("driver", None)]


def test_split_handles_unclosed_bracket_and_uneditable_marker():
    code = ("def f(# put arguments here):\n    pass\n\n"
            "# Uneditable section #\n@qml.qnode(dev)\ndef g():\n    return f()\n\n"
            "if __name__ == '__main__':\n    print(g())\n")
    assert [(c.kind, c.name) for c in split_template(code)] == [
        ("editable", "f"), ("given", "g"), ("driver", None)]


def test_stub_keeps_signature():
    chunk = [c for c in split_template(TEMPLATE) if c.kind == "editable"][0]
    node = ast.parse(stub(chunk)).body[0]
    assert node.name == "solve" and [a.arg for a in node.args.args] == ["a", "b"]
    assert "def solve(a, b):" in unfilled_solution(_problem())


def test_prepare_keeps_solution_drops_harness_redefinitions():
    code = ("import math\n\n@staticmethod\ndef solve(a, b):\n    return a + b\n\n"
            "def check(s, e):\n    pass\n\ndef helper(x):\n    return 0\n\n"
            "test_cases = []\nprint(solve(1, 2))\nif __name__ == '__main__':\n    pass\n")
    prep = prepare(_problem(), code)
    assert "def solve" in prep.source and "@staticmethod" in prep.source
    assert "def check" not in prep.source and "def helper" not in prep.source
    assert "test_cases" not in prep.source and "print(" not in prep.source
    assert set(prep.dropped) >= {"check", "helper", "test_cases", "expr", "if"}


@pytest.mark.parametrize("code,reason", [
    ("def solve(a, b)\n    return 1\n", "syntax_error"),
    ("def other(a, b):\n    return 1\n", "missing_functions"),
    ("def solve(a):\n    return 1\n", "template_broken"),
])
def test_prepare_format_problems(code, reason):
    with pytest.raises(FormatProblem) as info:
        prepare(_problem(), code)
    assert info.value.reason == reason


def test_official_definitions_come_after_the_solution():
    parts = program_parts(_problem(), "def solve(a, b):\n    return a + b\n")
    labels = [p[0] for p in parts]
    assert labels.index("<solution>") < labels.index("<qhack-harness-post>") == len(parts) - 1
    post = parts[-1][1]
    assert "def check" in post and "def run" in post and "def helper" in post
    assert all("test_cases" not in src for _, src in parts)


def test_compare_script_rules():
    assert compare_script("debug\n1,1,0\n", "1,1,0", {"func": "tokens", "rel": None}) == (True, "")
    assert not compare_script("1.0001", "1", {"func": "tokens", "rel": None})[0]
    assert compare_script("0.85356", "0.85355", {"func": "tokens", "rel": 1e-4})[0]
    assert not compare_script("0.86", "0.85355", {"func": "tokens", "rel": 1e-4})[0]
    assert compare_script("0.00001", "0.0", {"func": "tokens", "rel": 1e-4})[0]
    assert not compare_script("1,2", "1,2,3", {"func": "tokens", "rel": 1e-4})[0]
    assert not compare_script("constant", "balanced", {"func": "tokens", "rel": None})[0]
    rule = {"func": "accuracy", "min": 0.9}
    assert compare_script(",".join(["1"] * 19 + ["-1"]), ",".join(["1"] * 20), rule)[0]
    assert not compare_script(",".join(["1"] * 18 + ["-1"] * 2), ",".join(["1"] * 20), rule)[0]


def test_compare_numeric_repeats_allclose():
    rule = {"func": "allclose", "rtol": 1e-4, "atol": 1e-8}
    assert compare_numeric("[1.0, 2.00001]", "[1, 2]", rule) == (True, "")
    assert compare_numeric("[1.0, 2.1]", "[1, 2]", rule)[0] is False
    assert compare_numeric("[1.0]", "[1, 2, 3]", rule)[0] is False
    assert compare_numeric("not json", "[1]", rule) is None


def test_trusted_compare_only_for_plain_checks():
    plain = ("def check(s, e):\n    s = json.loads(s)\n    e = json.loads(e)\n"
             "    assert np.isclose(s, e, atol=0.2)\n")
    assert trusted_compare(plain) == {"func": "isclose", "rtol": 1e-5, "atol": 0.2}
    transformed = plain.replace("    assert", "    s = sorted(s)\n    assert")
    assert trusted_compare(transformed) is None
    custom = "def check(s, e):\n    assert circuit() == 1\n"
    assert trusted_compare(custom) is None


def test_shims_rewrite_harness_only_old_api():
    src = ("from pennylane import hf\nqml.QubitStateVector(s, wires=[0])\n"
           "ops = circuit.tape.operations\nn = dev.num_wires\nqml.QFT(wires=w).inv()\n"
           "x = f()[0].numpy()\nqml.broadcast(qml.RX, wires=[0, 1], pattern='single', "
           "parameters=p)\nt = np.sum(a for a in b)\ndev.operations.add('op')\n")
    out = rewrite_harness(src)
    for new in ("hf = _qce_hf", "qml.StatePrep(", "_qce_tape(circuit).operations",
                "_qce_num_wires(dev)", "_qce_inv(qml.QFT(wires=w))", "_qce_numpy(f()[0])",
                "_qce_broadcast(qml.RX", "np.sum(list(", "_qce_add_operation(dev, 'op')"):
        assert new in out, new
    assert rewrite_harness("x = 1\n") == "x = 1\n"


def test_shim_prelude_on_current_pennylane():
    import pennylane as qml

    ns: dict = {}
    exec(compile(SHIM_PRELUDE, "<shims>", "exec"), ns)
    dev = qml.device("default.qubit", wires=2)

    @qml.qnode(dev)
    def circuit(x):
        qml.RX(x, wires=0)
        return qml.expval(qml.PauliZ(0))

    circuit(0.3)
    tape = ns["_qce_tape"](circuit)
    assert [op.name for op in tape.operations] == ["RX"] and tape.operations[0].data[0] == 0.3
    assert ns["_qce_num_wires"](dev) == 2

    @qml.qnode(dev)
    def broadcast(p):
        ns["_qce_broadcast"](qml.RY, wires=[0, 1], pattern="single", parameters=p)
        return qml.state()

    assert abs(broadcast([0.0, 0.0])[0] - 1) < 1e-9
    with qml.tape.QuantumTape() as t:
        ns["_qce_inv"](qml.S(wires=0))
    assert [op.name for op in t.operations] == ["Adjoint(S)"]
