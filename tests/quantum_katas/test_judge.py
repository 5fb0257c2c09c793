"""The Quantum Katas judge on small tasks of upstream's shape (no dataset): the test functions
call the candidate's functions by name, helper functions the prompt asks for are the
candidate's too, task classes and enums cross as data, and what the program does in its own
process cannot change the test or its verdict."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.benchmarks.quantum_katas import Task, category, make_judge
from quantum_codegen_eval.judges import FunctionTestJudge
from quantum_codegen_eval.judges.base import judge_many
from quantum_codegen_eval.judges.quantum_katas import (
    QuantumKatasJudge,
    helper_names,
    task_classes,
)

FLIP_PROMPT = '''from qiskit import QuantumCircuit

def state_flip(qc: QuantumCircuit, q: int) -> QuantumCircuit:
    # Your code here
    pass
'''
FLIP = '''from qiskit import QuantumCircuit

def state_flip(qc, q):
    qc.x(q)
    return qc
'''
FLIP_TEST = '''import numpy as np
from qiskit import QuantumCircuit
from qiskit.quantum_info import Statevector

def test_state_flip():
    qc = state_flip(QuantumCircuit(1), 0)
    assert np.allclose(Statevector.from_instruction(qc).data, [0, 1])
    qc2 = QuantumCircuit(1)
    qc2.h(0)
    qc2.z(0)
    qc2 = state_flip(qc2, 0)
    assert np.allclose(Statevector.from_instruction(qc2).data, [-2 ** -0.5, 2 ** -0.5])
'''
FLIP_TASK = Task("BasicGates/1.1", FLIP_PROMPT, FLIP, FLIP_TEST, "state_flip", "BasicGates")

TABLE_PROMPT = '''from enum import Enum

class TruthTable:
    def __init__(self, bits: int, num_vars: int):
        self.bits = bits
        self.num_vars = num_vars

class Pauli(Enum):
    X = "X"
    Z = "Z"

def helper(p: Pauli) -> Pauli:
    pass

def tt_and(a: TruthTable, b: TruthTable) -> TruthTable:
    pass
'''
TABLE = TABLE_PROMPT.replace('''def helper(p: Pauli) -> Pauli:
    pass''', '''def helper(p: Pauli) -> Pauli:
    return Pauli.Z if p is Pauli.X else Pauli.X''').replace('''def tt_and(a: TruthTable, b: TruthTable) -> TruthTable:
    pass''', '''def tt_and(a: TruthTable, b: TruthTable) -> TruthTable:
    return TruthTable(a.bits & b.bits, a.num_vars)''')
TABLE_TEST = '''def test_other():
    raise AssertionError("upstream runs test_<entry_point> only")

def test_tt_and():
    r = tt_and(TruthTable(0b1010, 2), TruthTable(0b1100, 2))
    assert isinstance(r, TruthTable) and r.bits == 0b1000 and r.num_vars == 2
    assert helper(Pauli.X) is Pauli.Z
'''
TABLE_TASK = Task("TruthTables/4", TABLE_PROMPT, TABLE, TABLE_TEST, "tt_and", "TruthTables")


def test_the_base_is_public_and_katas_is_its_subclass():
    assert issubclass(QuantumKatasJudge, FunctionTestJudge)
    assert QuantumKatasJudge.style == "tests"
    assert category("tutorials/Oracles/2.1") == "tutorials"


def test_what_the_judge_reads_of_a_task():
    assert helper_names(TABLE_TASK) == ("tt_and", "helper")
    assert task_classes(TABLE_TASK) == ("TruthTable", "Pauli")
    assert QuantumKatasJudge().tests(TABLE_TASK) == ("test_tt_and",)
    assert helper_names(FLIP_TASK) == ("state_flip",) and task_classes(FLIP_TASK) == ()


#: a test that accepts any bool (upstream's Teleportation/1.7 is of this kind)
WEAK = Task("Teleportation/1.7", "def f(x: int) -> bool:\n    # Your code here\n    return True\n",
            "def f(x):\n    return x > 0\n", "def test_f():\n    assert isinstance(f(1), bool)\n",
            "f", "Teleportation")
WITHOUT_HELPER = TABLE.split("def helper")[0] + '''
def tt_and(a, b):
    return TruthTable(a.bits & b.bits, a.num_vars)
'''
CASES = [
    ("canonical", FLIP_TASK, FLIP, "AC"),
    ("fenced", FLIP_TASK, f"Here:\n```python\n{FLIP}```\n", "AC"),
    ("the prompt's stub", FLIP_TASK, FLIP_PROMPT, "WA"),
    ("wrong gate", FLIP_TASK, FLIP.replace("qc.x(q)", "qc.z(q)"), "WA"),
    ("raises", FLIP_TASK, FLIP.replace("qc.x(q)", "raise ValueError('no')"), "RE"),
    ("no function", FLIP_TASK, "x = 1\n", "RE"),
    ("no code", FLIP_TASK, "", "FORMAT"),
    ("endless", FLIP_TASK, FLIP.replace("qc.x(q)", "while True:\n        pass"), "TLE"),
    # the program patches what the test uses and defines the test function itself: both stay in
    # its own process; the test that runs is the task's
    ("patches numpy and the test", FLIP_TASK, FLIP.replace("qc.x(q)", "qc.z(q)")
     + "import numpy\nnumpy.allclose = lambda *a, **k: True\n"
     "def test_state_flip():\n    pass\n", "WA"),
    ("task classes and enums cross", TABLE_TASK, TABLE, "AC"),
    ("the stub of a class task", TABLE_TASK, TABLE_PROMPT, "WA"),
    ("a helper the prompt asks for is missing", TABLE_TASK, WITHOUT_HELPER, "RE"),
    ("a weak test: the solution", WEAK, WEAK.canonical_solution, "AC"),
    ("a weak test: the stub, which it accepts", WEAK, WEAK.prompt, "WA"),
]


@pytest.mark.parametrize(("name", "task", "completion", "status"), CASES,
                         ids=[c[0] for c in CASES])
def test_verdicts(name, task, completion, status, judged):
    v = judged[name]
    assert v.status == status, v.message
    if name == "a helper the prompt asks for is missing":
        assert "NameError" in v.message and "helper" in v.message
    if name == "a weak test: the stub, which it accepts":
        assert "f() is the prompt's stub" in v.message and v.details["stub"]


@pytest.fixture(scope="module")
def judged(sandbox):
    judge = make_judge(time_limit=10.0)  # with the benchmark's extraction rule
    got = judge_many(judge, [(t, c) for _, t, c, _ in CASES], sandbox)
    return {name: v for (name, *_), v in zip(CASES, got, strict=True)}


def test_a_test_without_test_functions_is_a_judge_error():
    task = Task("X/1", FLIP_PROMPT, FLIP, "def helper():\n    pass\n", "state_flip", "X")
    v = QuantumKatasJudge().jobs(task, FLIP)
    assert v.details["judge_error"] and "no test function" in v.message
