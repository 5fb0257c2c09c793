"""The task-values codec extension (judges/function_test/jobs/task_values.py): what crosses
each way, and that the trusted side never builds code from the program's data."""

from __future__ import annotations

import enum

import pytest

from quantum_codegen_eval.judges.function_test.jobs import codec, task_values
from quantum_codegen_eval.judges.jobs import wire

TEST = '''import math

def scale(x):
    return 2 * x

def test_it():
    k = 3

    def oracle(x, y=1):
        return scale(x) * k + y + math.floor(0.5)

    return oracle
'''


class Pauli(enum.Enum):
    X = "X"


class Table:
    def __init__(self, bits):
        self.bits = bits


def _trusted():
    ns = {}
    exec(compile(TEST, task_values.TEST_FILE, "exec"), ns)
    c = task_values.with_classes(codec.CODEC, {"Pauli": Pauli, "Table": Table}, TEST,
                                 call=lambda name, args, kwargs: None)
    return c, ns


def _program():
    return task_values.with_classes(codec.CODEC, {"Pauli": Pauli, "Table": Table},
                                    program={"__builtins__": __builtins__})


def test_a_test_oracle_crosses_as_source_with_its_closure_and_helpers():
    trusted, ns = _trusted()
    oracle = ns["test_it"]()
    data = trusted.encode(oracle)
    assert data["$"] == "task_fn" and "def scale" in data["imports"] and "import math" in \
        data["imports"]
    rebuilt = _program().decode(data)
    assert rebuilt(5) == oracle(5) == 31 and rebuilt(5, y=0) == 30


def test_the_trusted_side_never_builds_a_function_from_the_program():
    trusted, ns = _trusted()
    data = trusted.encode(ns["test_it"]())
    with pytest.raises(wire.WireError, match="cannot cross to the test"):
        trusted.decode(data)


def test_a_returned_function_is_a_remote_stand_in_on_the_test_side():
    program = _program()
    data = program.encode(lambda x: x + 1)
    assert data == {"$": "callable", "ref": 0}
    asked = []
    trusted = task_values.with_classes(codec.CODEC, {}, TEST,
                                       call=lambda name, a, k: asked.append((name, a)) or 7)
    remote = trusted.decode(data)
    assert type(remote) is task_values.Remote and remote(1) == 7 and asked == [("$ref:0", (1,))]
    assert trusted.encode(remote) == data  # passed back, it is the program's own function
    assert program.decode(data)(1) == 2


def test_classes_cross_by_name_and_undeclared_ones_are_malformed():
    program = _program()
    out = program.decode(program.encode([Pauli.X, Table(5)]))
    assert out[0] is Pauli.X and type(out[1]) is Table and out[1].bits == 5
    with pytest.raises(wire.WireError, match="unknown tag 'task'"):  # Qiskit HumanEval's codec
        codec.CODEC.decode({"$": "task", "cls": "Table", "state": []})
    with pytest.raises(wire.WireError, match="not declared"):
        program.decode({"$": "task", "cls": "Other", "state": []})
    with pytest.raises(wire.WireError, match="malformed attribute"):
        program.decode({"$": "task", "cls": "Table", "state": [["__class__", 1]]})
