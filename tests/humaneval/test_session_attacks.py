"""Programs that attack the live session itself (tests/humaneval/session_programs/): holding the
link open from a child, never answering, forging frames on it, closing it. Each gets a verdict
of its own and the judge's wait stays bounded by the program's limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from quantum_codegen_eval.benchmarks import qiskit_humaneval as qhe
from quantum_codegen_eval.judges.base import judge_many

PROGRAMS = Path(__file__).with_name("session_programs")
SQUARE = qhe.Task("own/square", 'def square(x):\n    """x squared."""', "",
                  "def check(candidate):\n    assert candidate(7) == 49\n",
                  "square", "basic", "hard")
EXPECTED = {
    "daemon_holds_the_link": ("RE", "ended during call 1"),
    "silent_in_a_call": ("TLE", "call 1: over"),
    "floods_file_frames": ("RE", "two file frames in one turn"),
    "closes_every_fd": ("RE", "ended during call 1"),
}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def verdicts(sandbox):
    items = [(SQUARE, (PROGRAMS / f"{name}.py").read_text()) for name in EXPECTED]
    items.append((SQUARE, "def square(x):\n    return x * x\n"))
    return dict(zip([*EXPECTED, "right"], judge_many(qhe.make_judge(time_limit=2.0), items,
                                                     sandbox), strict=True))


@pytest.mark.parametrize("name", list(EXPECTED))
def test_an_attack_on_the_session_gets_its_verdict(verdicts, name):
    status, fragment = EXPECTED[name]
    v = verdicts[name]
    assert (v.status, v.judge_error) == (status, False), v.message
    assert fragment in v.message, v.message
    # the wait is the program's limits (2 CPU s, a wall clock of 3 x that), not a hang
    assert v.timings["wall_time"] < 20, v.timings


def test_the_right_program_passes(verdicts):
    assert verdicts["right"].status == "AC", verdicts["right"].message
