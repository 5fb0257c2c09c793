"""Pure logic of the QHack judge: template splitting, solution extraction, comparisons, shims.

The code snippets here are written for these tests (no upstream text)."""

from __future__ import annotations

import ast
import base64
import json
import re

import pytest

from quantum_codegen_eval.formats.qhack_template import split_template, stub
from quantum_codegen_eval.judges.qhack import (
    FormatProblem,
    check_trust,
    compare_script,
    payload,
    prepare,
    program_parts,
    unfilled_solution,
    validate,
)
from quantum_codegen_eval.judges.qhack.jobs import shims as job_shims
from quantum_codegen_eval.judges.qhack.shims import rewrite_harness
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
    assert compare_script("1,1,0\n", "1,1,0", {"func": "tokens", "rel": None}) == (True, "")
    # the statements: "Do not add any print statements ... this will cause your submission to fail"
    assert compare_script("debug\n1,1,0\n", "1,1,0", {"func": "tokens", "rel": None}) == (
        False, "expected 3 value(s), got 4")
    assert not compare_script("1.0001", "1", {"func": "tokens", "rel": None})[0]
    assert compare_script("0.85356", "0.85355", {"func": "tokens", "rel": 1e-4})[0]
    assert not compare_script("0.86", "0.85355", {"func": "tokens", "rel": 1e-4})[0]
    assert compare_script("0.00001", "0.0", {"func": "tokens", "rel": 1e-4})[0]
    assert not compare_script("1,2", "1,2,3", {"func": "tokens", "rel": 1e-4})[0]
    assert not compare_script("constant", "balanced", {"func": "tokens", "rel": None})[0]
    rule = {"func": "accuracy", "min": 0.9}
    assert compare_script(",".join(["1"] * 19 + ["-1"]), ",".join(["1"] * 20), rule)[0]
    assert compare_script(",".join(["1"] * 18 + ["-1"] * 2), ",".join(["1"] * 20), rule)[0]  # >=
    assert not compare_script(",".join(["1"] * 17 + ["-1"] * 3), ",".join(["1"] * 20), rule)[0]


def test_validate_rejects_outputs_of_the_wrong_type_or_shape():
    rec = {**_problem(), "compare": '{"func": "allclose", "rtol": 1e-4, "atol": 1e-8}'}
    assert validate(rec, "[1.0, 2.00001]", "[1, 2]", "") is None
    assert validate(rec, "3.0", "3", "") is None
    for bad in ("[]", "[3]", "[[1, 2]]", "null", "\"3\"", "[1, [2]]", "NaN", "[1, Infinity]"):
        assert validate(rec, bad, "[1, 2]" if bad != "NaN" else "3", ""), bad
    assert "not the string" in validate(rec, 3.0, "3", "")
    assert "not a JSON value" in validate(rec, "three", "3", "")
    for depth in (900, 5000):  # a reason, never a RecursionError in the judge
        assert validate(rec, "[" * depth + "1" + "]" * depth, "[1, 2]", "")
    custom = {**_problem(), "compare": ""}
    assert validate(custom, [], "3", "") is None  # only check() decides


def test_payload_round_trip_and_bounds():
    import numpy as np

    value = [np.arange(6, dtype=np.int32).reshape(2, 3), (1.5 - 2j, float("nan")), {"a": None},
             np.float32(0.25), True, "x"]
    back = payload.decode(json.loads(json.dumps(payload.encode(value))))
    assert back[0].dtype == np.int32 and back[0].shape == (2, 3) and back[0][1, 2] == 5
    assert back[1][0] == 1.5 - 2j and np.isnan(back[1][1]) and back[2] == {"a": None}
    assert back[3:] == [0.25, True, "x"]
    assert isinstance(payload.decode(payload.encode(object())), payload.Opaque)
    for arr in (np.array(1.25), np.arange(6).reshape(2, 3).T, np.array(3, dtype=">i4")):
        got = payload.decode(payload.encode(arr))  # 0-d stays 0-d, order and byte order kept
        assert got.shape == arr.shape and (got == arr).all()
    deep: list = []
    for _ in range(100):
        deep = [deep]
    # deeper than the depth limit: it crosses as a graph of its containers
    assert payload.decode(json.loads(json.dumps(payload.encode(deep)))) == deep
    bad_npy = base64.b64encode(b"\x93NUMPY\x01\x00" + b"\x30\x00" + b"{" * 48).decode()
    hostile = [{"$": "ndarray", "npy": bad_npy}, {"$": "ndarray", "npy": "AAAA"},
               {"$": "objarray", "shape": [10 ** 6, 10 ** 6], "v": []},
               {"$": "float", "v": "1e999x"}, {"$": "int", "x": 1.5}, {"$": "list", "v": [1]},
               {"x": 1, "y": 2}, {"$": "tuple", "v": "s"}, {"$": "unsupported", "limit": True},
               json.loads('{"$": "tuple", "v": ' * 60 + "1" + "}" * 60)]
    for h in hostile:
        with pytest.raises(payload.PayloadError):
            payload.decode(h)


def test_prepare_drops_rebinding_of_harness_names():
    code = ("import numpy as np\nimport json, math\nfrom pennylane import *\n"
            "np.allclose = lambda *a, **k: True\nqml.math.fidelity = None\n"
            "helper = lambda x: 0\nx = setattr(json, 'loads', eval)\nhelper_ok = 2\n"
            "class Patch:\n    json.loads = None\n"
            "try:\n    json = None\nexcept Exception:\n    pass\n"
            "def solve(a, b):\n    np.isclose = None\n    return a + b\n")
    prep = prepare(_problem(), code)
    src = prep.source
    # an import may replace a name the harness binds by import (an edited import line upstream;
    # the verdict is decided in the trusted stage, which imports the harness's own modules), but
    # assignments to it or to its attributes are dropped
    assert "import json, math" in src and "json =" not in src and "json.loads" not in src
    assert "allclose" not in src and "fidelity" not in src and "setattr" not in src
    assert "helper =" not in src and "helper_ok = 2" in src and "Patch" not in src
    assert "import *" not in src and "def solve" in src
    assert {"import *", "attribute assignment", "helper", "eval", "json"} <= set(prep.dropped)


def test_prepare_keeps_items_of_the_solutions_own_names():
    """``M = np.zeros(...); M[0, 1] = 1.0`` at top level is how notebooks built matrices: the
    items of a name the solution bound itself are kept (they were dropped, leaving a zero matrix
    where the contest ran the filled one); items and attributes of the harness's names, and
    attributes of the solution's own, are still dropped."""
    code = ("import numpy as np\nM = np.zeros((2, 2))\nM[0, 1] = 1.0\nM[1][0] += 1.0\n"
            "np.eye(2)[0, 0] = 3\nnp.allclose = None\nM.shape = (4,)\n"
            "def solve(a, b):\n    return a + b + M[0, 1]\n")
    prep = prepare(_problem(), code)
    assert "M[0, 1] = 1.0" in prep.source and "M[1][0] += 1.0" in prep.source
    assert "np.eye(2)[0, 0]" not in prep.source and "allclose" not in prep.source
    assert "M.shape" not in prep.source
    assert prep.dropped.count("attribute assignment") == 3


def test_prepare_keeps_top_level_loops_a_contestants_file_runs():
    """A matrix filled by a top-level loop (as a contestant's file did) is kept, nested loops and
    ``while`` too; a loop storing into the harness's names, rebinding them or driving the
    template's tests (its own test loop pasted back) is dropped."""
    code = ("import numpy as np\nM = np.zeros((3, 3))\nfor i in range(3):\n    for j in range(3):\n"
            "        M[i, j] = 3 * i + j\nk = 0\nwhile k < 2:\n    k += 1\n"
            "rows = []\nfor r in range(2):\n    row = [0, 0]\n    row[r] = 1\n    rows.append(row)\n"
            "for a in range(2):\n    json.loads = None\n"
            "for helper in range(2):\n    pass\n"
            "for t, (input_, expected_output) in enumerate(test_cases):\n    print(run(input_))\n"
            "import sys\nfor fg in [sys._getframe(0).f_globals]:\n    fg['solve'] = None\n"
            "def solve(a, b):\n    return a + b + M[2, 2] + k\n")
    prep = prepare(_problem(), code)
    assert "M[i, j] = 3 * i + j" in prep.source and "while k < 2" in prep.source
    assert "rows.append(row)" in prep.source and "json.loads" not in prep.source
    assert "for helper" not in prep.source and "run(input_)" not in prep.source
    assert "fg['solve']" not in prep.source
    assert prep.dropped == ["attribute assignment", "helper", "test loop", "f_globals"]
    ns: dict = {}
    exec(prep.source, ns)
    assert ns["M"][2, 2] == 8 and ns["k"] == 2 and ns["rows"] == [[1, 0], [0, 1]]
    assert ns["solve"](1, 2) == 13


def test_prepare_loop_may_reuse_a_harness_loop_target():
    """The template's given loop binds ``i``; the solution's own loop over ``i`` is kept (the
    harness rebinds ``i`` before it reads it), an assignment to ``i`` or to the harness's
    ``table`` is still dropped."""
    template = TEMPLATE.replace('dev = qml.device("default.qubit", wires=1)\n',
                                'table = [0, 0]\nfor i in range(2):\n    table[i] = i + 1\n')
    code = ("D = [0, 0, 0]\nfor i in range(3):\n    D[i] = i\ni = 7\n"
            "for j in range(2):\n    table[j] = 0\n"
            "def solve(a, b):\n    return D[2] * (a + b)\n")
    prep = prepare(_problem(template), code)
    assert "D[i] = i" in prep.source and "i = 7" not in prep.source
    assert "table[j]" not in prep.source
    assert prep.dropped == ["i", "attribute assignment"]


def test_prepare_drops_repeated_given_code():
    template = TEMPLATE.replace('dev = qml.device("default.qubit", wires=1)\n',
                                'table = [0, 0]\nfor i in range(2):\n    table[i] = i + 1\n')
    code = "table = [0, 0]\n\ndef solve(a, b):\n    return table[1] * (a + b)\n"
    prep = prepare(_problem(template), code)
    assert "table = [0, 0]" not in prep.source and prep.dropped == ["table"]


def test_check_trust_data_or_live():
    assert check_trust(_problem()) == "data"
    live = TEMPLATE.replace("    solution_output = json.loads(solution_output)\n",
                            "    assert solve(1, 1) == 2\n    solution_output = "
                            "json.loads(solution_output)\n")
    assert check_trust(_problem(live)) == "live"
    assert check_trust({**_problem(), "format": "script"}) == "data"


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
           "parameters=p)\nt = np.sum(a for a in b)\ndev.operations.add('op')\nm = g.__module__\n")
    out = rewrite_harness(src)
    for new in ("hf = _qce_hf", "qml.StatePrep(", "_qce_tape(circuit).operations",
                "_qce_num_wires(dev)", "_qce_inv(qml.QFT(wires=w))", "_qce_numpy(f()[0])",
                "_qce_broadcast(qml.RX", "np.sum(list(", "_qce_add_operation(dev, 'op')",
                "_qce_op_module(g)"):
        assert new in out, new
    assert rewrite_harness("x = 1\n") == "x = 1\n"
    # every helper the rewritten harness calls is one the jobs put into its namespace
    assert set(re.findall(r"_qce_\w+", out)) == set(job_shims.helpers())


def test_shim_helpers_on_current_pennylane():
    import pennylane as qml

    job_shims.install()
    ns = job_shims.helpers()
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
