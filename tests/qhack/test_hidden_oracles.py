"""Hidden oracles, judged as the contests' own loops judge them.

Challenges whose solution is handed an oracle built from hidden data: ``2024/ruins_oasis``,
``2024/lazy_workers_terminal``, ``2024/fireworks_qutropolis`` and ``2023/office_hijinks_400``
(this file) and the four 2022 scripts listed in docs/benchmarks/qhack.md (*Hidden oracles*:
queried in rounds, test_oracle_queries.py).

``lazy_workers_terminal``: the official ``run()`` builds the oracle from the test's workers and
calls ``circuit(oracle)`` in the program's process. A circuit that reads the workers out of the
oracle (its decomposition, its closure, ``run()``'s frame) and sets two workers' bits is
accepted by the contest's own loop, so it is ``AC`` here too (the recorded replay: the program's
job runs the official ``run()`` with the real oracle behind a recording proxy that shows the
oracle's own closure, the trusted job replays the recorded circuit with the harness's oracle of
the same test); the record's ``weak_check`` says so. The contest ran the three tests in one
process: a circuit that keeps the first test's workers fails its second test there, and here
(the program's job runs the earlier tests' ``run()`` first). From 2026-12-04 to 2026-12-06 the
program's job got only a placeholder, and such programs were ``WA`` where the contest accepted
them (the 2024 FemtoForest_500 disagreement); until 2026-12-07 a closure reader was ``RE``.

``ruins_oasis``, ``fireworks_qutropolis``, ``office_hijinks_400``: the official ``check()`` draws
the oracles (100, 500, 5,000) and calls the solution with each (``ruins_oasis`` and
``fireworks_qutropolis`` twice: the first call's tape is inspected, the second's probabilities
compared; ``office_hijinks_400`` once, then ``process_output`` on the shot), all in the program's
process, where the oracle's matrix, decomposition and closure and ``check()``'s frame can be
read. The contest's loop accepts programs that read any of them, so they are ``AC`` here too: the
program's job runs the official ``check()`` with the real oracles and records every call in
order, and the trusted job replays the n-th call against the n-th oracle it draws itself (a
``sequence`` record; ``process_output``'s n-th value likewise); the records' ``weak_check`` says
so. Until 2026-12-07 such programs were ``WA`` where the contest accepted them (an opaque
placeholder for ``ruins_oasis``; one record per argument key, replayed against every oracle, for
the other two).

Every program here is judged and run through the contest's loop in the era interpreter, and the
two verdicts must agree.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from qhack_official import official_loop

from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.judges.base import judge_many

pytestmark = [pytest.mark.slow, pytest.mark.upstream]

READS_CLOSURE_AND_FRAMES = '''
import sys
import pennylane as qml


def _workers(oracle):
    for cell in getattr(oracle, "__closure__", None) or ():
        value = cell.cell_contents
        if isinstance(value, list) and all(isinstance(w, int) for w in value):
            return value
    frame = sys._getframe(1)
    while frame is not None:
        if isinstance(frame.f_locals.get("workers"), list):
            return frame.f_locals["workers"]
        frame = frame.f_back
    return []


def circuit(oracle):
    for w in _workers(oracle)[:2]:
        qml.PauliX(wires=w)
'''

#: reads the workers from the oracle's own closure only
READS_CLOSURE = '''
import pennylane as qml


def circuit(oracle):
    workers = next(c.cell_contents for c in oracle.__closure__
                   if isinstance(c.cell_contents, list))
    qml.PauliX(wires=workers[0])
    qml.PauliX(wires=workers[1])
'''

#: remembers what a first (real) call showed and uses it for the next
REMEMBERS_FIRST_CALL = '''
import pennylane as qml

SEEN = []


def circuit(oracle):
    cells = [c.cell_contents for c in getattr(oracle, "__closure__", None) or ()]
    SEEN.extend(v for v in cells if isinstance(v, list))
    workers = SEEN[0] if SEEN else []
    for w in workers[:2]:
        qml.PauliX(wires=w)
'''

#: reads the workers from the matrix in the oracle's decomposition
READS_DECOMPOSITION = '''
import itertools
import pennylane as qml


def circuit(oracle):
    op = oracle(wires=range(9))
    matrix = qml.matrix(op.decomposition()[1].base)
    for a, b in itertools.combinations(range(8), 2):
        if matrix[(1 << (7 - a)) | (1 << (7 - b)), (1 << (7 - a)) | (1 << (7 - b))] == -1:
            qml.PauliX(wires=a)
            qml.PauliX(wires=b)
            return
'''

#: honest: sets workers 0 and 1 (right for the tests whose non-lazy workers include both) and
#: queries the oracle with its control in |->, which only adds phases
FIXED_STATE_WITH_QUERY = '''
import pennylane as qml


def circuit(oracle):
    qml.PauliX(wires=0)
    qml.PauliX(wires=1)
    qml.PauliX(wires=8)
    qml.Hadamard(wires=8)
    oracle(wires=range(9))
'''

#: ruins_oasis: reads the matrix of the oracle from a tape of its own, which PennyLane 0.34 puts
#: on the QNode's tape, where check() fails on its name
RUINS_READS_MATRIX = '''
import pennylane as qml


def circuit(oracle):
    try:
        with qml.tape.QuantumTape() as tape:
            oracle(wires=[0, 1, 2])
        m = qml.matrix(tape.operations[0])
        flip = bool(abs(m[1, 0]) > 0.5)
    except Exception:
        flip = False
    qml.Hadamard(wires=0)
    oracle(wires=[0, 1, 2])
    if flip:
        qml.PauliX(wires=2)
'''

#: reads the villages with a minus sign from the oracle's decomposition, whose operations it
#: queues after the oracle (undoing it: the oracle is its own inverse), then sets the answer
RUINS_READS_DECOMPOSITION = '''
import pennylane as qml


def circuit(oracle):
    op = oracle(wires=[0, 1, 2])
    try:
        parts = op.decomposition()
        signs = {}
        for p in parts:
            if "GlobalPhase" in p.name:
                signs[tuple(p.control_values)] = True
        if bool(signs.get((False, False))) != bool(signs.get((True, True))):
            qml.PauliX(wires=2)
    except Exception:
        pass
'''

#: reads which villages hold the negative states from the oracle's closure
RUINS_READS_CLOSURE = '''
import pennylane as qml


def circuit(oracle):
    villages = next(c.cell_contents for c in oracle.__closure__
                    if isinstance(c.cell_contents, list))
    negative = {tuple(villages[2]), tuple(villages[3])}
    qml.Hadamard(wires=2)
    oracle(wires=[0, 1, 2])
    qml.Hadamard(wires=2)
    if ((0, 0) in negative) != ((1, 1) in negative):
        qml.PauliX(wires=2)
'''

#: reads the answer from check()'s frame
RUINS_READS_FRAME = '''
import sys
import pennylane as qml


def circuit(oracle):
    frame = sys._getframe(1)
    while frame is not None and "target" not in frame.f_locals:
        frame = frame.f_back
    qml.Hadamard(wires=2)
    oracle(wires=[0, 1, 2])
    qml.Hadamard(wires=2)
    if frame is not None and frame.f_locals["target"]:
        qml.PauliX(wires=2)
'''

#: queries the oracle only in the calls whose tape check() counts (the first with each oracle)
#: and answers from its matrix, without a query, in the others
RUINS_QUERIES_WHEN_COUNTED = '''
import itertools
import pennylane as qml

CALLS = itertools.count(1)


def circuit(oracle):
    if next(CALLS) % 2:
        oracle(wires=[0, 1, 2])
        return
    with qml.QueuingManager.stop_recording():
        matrix = qml.matrix(oracle(wires=[0, 1, 2]))
    if matrix[:, 0].sum().real * matrix[:, 6].sum().real < 0:
        qml.PauliX(wires=2)
'''

#: honest: one query on (|00> + |11>)/sqrt(2) with wire 2 in |+> (only the signs s(v) kick
#: back); wire 0 ends in |1> exactly when s(00) != s(11) (the legend is true), copied to wire 2
RUINS_HONEST = '''
import pennylane as qml


def circuit(oracle):
    qml.Hadamard(wires=2)
    qml.Hadamard(wires=0)
    qml.CNOT(wires=[0, 1])
    oracle(wires=[0, 1, 2])
    qml.CNOT(wires=[0, 1])
    qml.Hadamard(wires=0)
    qml.Hadamard(wires=2)
    qml.CNOT(wires=[0, 2])
'''

#: honest and wrong: compares the signs of neighbouring villages 00 and 01
RUINS_HONEST_WRONG = '''
import pennylane as qml


def circuit(oracle):
    qml.Hadamard(wires=2)
    qml.Hadamard(wires=1)
    oracle(wires=[0, 1, 2])
    qml.Hadamard(wires=1)
    qml.Hadamard(wires=2)
    qml.CNOT(wires=[1, 2])
'''

#: fireworks_qutropolis: reads the buildings out of each oracle's closure (through any wrapper
#: around it) and prepares the answer without a query
FIREWORKS_READS_CLOSURE = '''
import pennylane as qml


def buildings(fn, depth=0):
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    if "buildings" in cells:
        return cells["buildings"].cell_contents
    for cell in cells.values():
        if callable(cell.cell_contents) and hasattr(cell.cell_contents, "__code__") and depth < 5:
            return buildings(cell.cell_contents, depth + 1)


def is_safe_configuration(oracle):
    b = buildings(oracle)
    if 2 * abs(b[0] - b[1]) % 8 == 0:
        qml.PauliX(wires=4)
'''

#: fireworks_qutropolis, honest and wrong: one query, no answer on wire 4
FIREWORKS_NO_ANSWER = '''
import pennylane as qml


def is_safe_configuration(oracle):
    oracle(wires=[0, 1, 2, 3])
'''

#: office_hijinks_400: process_output reads the lazy worker from check()'s frame
OFFICE_READS_FRAME = '''
import sys
import pennylane as qml


@qml.qnode(dev)
def circuit(project_execution):
    project_execution(wires=wires)
    return qml.sample(wires=dev.wires)


def process_output(measurement):
    frame = sys._getframe(1)
    while frame is not None and "lazy" not in frame.f_locals:
        frame = frame.f_back
    return "e%d" % (frame.f_locals["lazy"] + 1 if frame is not None else 1)
'''

WEAK = Path(__file__).parent / "solutions" / "weak"

CASES = {
    "lazy_reads": ("2024/lazy_workers_terminal", READS_CLOSURE_AND_FRAMES),
    "lazy_closure": ("2024/lazy_workers_terminal", READS_CLOSURE),
    "lazy_remembers": ("2024/lazy_workers_terminal", REMEMBERS_FIRST_CALL),
    "lazy_honest": ("2024/lazy_workers_terminal", FIXED_STATE_WITH_QUERY),
    "lazy_decomposition": ("2024/lazy_workers_terminal", READS_DECOMPOSITION),
    "ruins_matrix": ("2024/ruins_oasis", RUINS_READS_MATRIX),
    "ruins_decomposition": ("2024/ruins_oasis", RUINS_READS_DECOMPOSITION),
    "ruins_closure": ("2024/ruins_oasis", RUINS_READS_CLOSURE),
    "ruins_frame": ("2024/ruins_oasis", RUINS_READS_FRAME),
    "ruins_when_counted": ("2024/ruins_oasis", RUINS_QUERIES_WHEN_COUNTED),
    "ruins_weak": ("2024/ruins_oasis", (WEAK / "2024" / "ruins_oasis.py").read_text()),
    "ruins_honest": ("2024/ruins_oasis", RUINS_HONEST),
    "ruins_honest_wrong": ("2024/ruins_oasis", RUINS_HONEST_WRONG),
    "fireworks_closure": ("2024/fireworks_qutropolis", FIREWORKS_READS_CLOSURE),
    "fireworks_weak": ("2024/fireworks_qutropolis",
                       (WEAK / "2024" / "fireworks_qutropolis.py").read_text()),
    "fireworks_no_answer": ("2024/fireworks_qutropolis", FIREWORKS_NO_ANSWER),
    "office_frame": ("2023/office_hijinks_400", OFFICE_READS_FRAME),
    "office_weak": ("2023/office_hijinks_400",
                    (WEAK / "2023" / "office_hijinks_400.py").read_text()),
}


@pytest.fixture(scope="module")
def verdicts(qhack_problems, sandbox):
    judge = qhack.make_judge(env="era")
    names = list(CASES)
    out = judge_many(judge, [(qhack_problems[CASES[n][0]], CASES[n][1]) for n in names], sandbox)
    return dict(zip(names, out, strict=True))


#: what the contest's loop says of each program (checked against it below)
CONTEST = {"lazy_reads": "AC", "lazy_closure": "AC", "lazy_decomposition": "AC",
           "lazy_remembers": "WA", "lazy_honest": "WA", "ruins_matrix": "WA",
           "ruins_decomposition": "AC", "ruins_closure": "AC", "ruins_frame": "AC",
           "ruins_when_counted": "AC", "ruins_weak": "AC", "ruins_honest": "AC",
           "ruins_honest_wrong": "WA", "fireworks_closure": "AC", "fireworks_weak": "AC",
           "fireworks_no_answer": "WA", "office_frame": "AC", "office_weak": "AC"}


@pytest.mark.parametrize("name", sorted(CONTEST))
def test_verdict_is_the_contests(name, verdicts):
    v = verdicts[name]
    assert v.status == CONTEST[name], (v.status, v.message)
    assert v.details["check_trust"] == "circuit"


@pytest.mark.era
@pytest.mark.parametrize("name", sorted(CONTEST))
def test_the_contests_loop_says_so(name, qhack_problems, tmp_path):
    run = official_loop(name, qhack_problems[CASES[name][0]], CASES[name][1], tmp_path / name)
    if run.failure and run.failure.startswith("skip:"):
        pytest.skip(run.failure)
    assert (run.failure is None) == (CONTEST[name] == "AC"), run.failure


def test_a_query_reaches_the_real_oracle(verdicts):
    """The honest program is judged as the contest's own loop judges it: workers 0 and 1 are both
    non-lazy in tests 0 and 2, not in test 1 ([1, 7])."""
    v = verdicts["lazy_honest"]
    assert [t.passed for t in v.tests] == [True, False, True], [(t.name, t.message) for t in v.tests]


def test_a_remembered_first_test_fails_the_second(verdicts):
    """The circuit that keeps the first oracle's workers ([0, 1, 3, 6]) fails test 1 ([1, 7]),
    as in the contest's loop (all tests in one process), and passes tests 0 and 2: the
    program's job of each test runs the earlier tests' run() first."""
    v = verdicts["lazy_remembers"]
    assert [t.passed for t in v.tests] == [True, False, True], [(t.name, t.message) for t in v.tests]


def test_ruins_programs_fail_where_the_contest_does(verdicts):
    """The tape check() reads holds the matrix reader's own tape (no name: check() raises, as in
    the contest); the honest wrong circuit gives a wrong answer for some oracle."""
    v = verdicts["ruins_matrix"]
    assert v.tests_passed == 0 and "'QuantumTape' object has no attribute 'name'" in v.message, \
        v.message
    v = verdicts["ruins_honest_wrong"]
    assert v.tests_passed == 0 and "Wrong answer!" in v.message, v.message
