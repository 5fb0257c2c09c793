"""The test's global random states cross to the program with each call
(``judges/function_test/jobs/random_state.py``): a call draws what it would in the test's own
process, as upstream's runner has it."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from quantum_codegen_eval.benchmarks.quantum_katas import Task
from quantum_codegen_eval.judges.base import judge_many
from quantum_codegen_eval.judges.function_test.jobs import random_state
from quantum_codegen_eval.judges.quantum_katas import QuantumKatasJudge


def _draws():
    return (random.random(), random.gauss(0, 1), np.random.random(), np.random.normal())


def test_a_packed_state_restores_every_draw_through_json():
    random.seed(5)
    np.random.seed(7)
    random.gauss(0, 1)  # a cached second gaussian in both generators
    np.random.normal()
    packed = json.loads(json.dumps(random_state.pack()))
    expected = _draws()
    random.seed(99)
    np.random.seed(99)
    random_state.restore(packed)
    assert _draws() == expected


def test_equal_states_pack_equal_and_a_draw_changes_them():
    np.random.seed(1)
    random.seed(1)
    first = random_state.pack()
    assert random_state.pack() == first
    np.random.random()
    assert random_state.pack() != first
    np.random.seed(1)
    assert random_state.pack() == first
    random.random()
    assert random_state.pack() != first


@pytest.mark.parametrize("spoil", [
    lambda p: p.pop("py"),
    lambda p: p["np"].__setitem__(1, p["np"][1][:-8]),  # a key short of two words
    lambda p: p["py"].__setitem__(0, "3"),
    lambda p: p["np"].__setitem__(2, 1.5),
    lambda p: p["py"].__setitem__(1, "not base64!"),
])
def test_anything_else_is_refused(spoil):
    packed = random_state.pack()
    spoil(packed)
    with pytest.raises(ValueError):
        random_state.restore(packed)


PROMPT = "def draw() -> float:\n    pass\n"
PROGRAMS = {
    "numpy": "import numpy as np\n\n\ndef draw():\n    return float(np.random.random())\n",
    "random": "import random\n\n\ndef draw():\n    return random.gauss(0, 1)\n",
}
#: what one process gives: the first call starts from the test's seeded state, the second
#: continues where the first left it (the test drew nothing in between), the third starts from
#: the state the test drew from after reseeding
TEST = """\
import random
import numpy as np


def test_draw():
    MODULE.seed(3)
    first, second = DRAW, DRAW
    MODULE.seed(3)
    a = draw()
    b = draw()
    assert (a, b) == (first, second), (a, b, first, second)
    MODULE.seed(3)
    DRAW
    assert draw() == second
"""


@pytest.mark.parametrize("module", sorted(PROGRAMS))
def test_calls_draw_what_they_would_in_the_tests_process(module, sandbox):
    draw = "np.random.random()" if module == "numpy" else "random.gauss(0, 1)"
    test = TEST.replace("MODULE", "np.random" if module == "numpy" else "random")
    test = test.replace("DRAW", draw)
    program = PROGRAMS[module]
    task = Task("X/1", PROMPT, program, test, "draw", "X")
    verdict = judge_many(QuantumKatasJudge(time_limit=20.0), [(task, program)], sandbox)[0]
    assert verdict.status == "AC", verdict.message
    # a program that reseeds breaks the chain: the test sees it
    reseeding = program.replace("def draw():\n", "def draw():\n    MODULE.seed(4)\n").replace(
        "MODULE", "np.random" if module == "numpy" else "random")
    verdict = judge_many(QuantumKatasJudge(time_limit=20.0), [(task, reseeding)], sandbox)[0]
    assert verdict.status == "WA", verdict.message
