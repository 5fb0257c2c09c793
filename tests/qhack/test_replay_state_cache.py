"""The recorded replay's state cache and oracle memo (``jobs/statecache.py``) change no draw.

``office_hijinks_400`` and ``_500`` replay 5,000 single-shot trials per test. The fast path
simulates each distinct (recorded circuit, oracle matrices) once and memoizes the harness oracle's
``matrix()``; the shot is still drawn by ``default.qubit`` from the global NumPy stream. The
heavy tests judge each program twice, ``state_cache=False`` (the slow path, as before) and the
default, and require: the program jobs' files identical (the record is the same), every replayed
shot and answer identical in order (traced by tests/support/replay_trace.py), the fast path
actually taken, and the same verdict. The unit tests at the end check the memo's keys.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import numpy as np
import pytest

from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.judges import _embed
from quantum_codegen_eval.judges.qhack.jobs import statecache, trusted
from quantum_codegen_eval.judges.qhack.runner import CHECKED_FILE

SOLUTIONS = Path(__file__).parent / "solutions" / "2023"
TRACE = Path(__file__).parents[1] / "support" / "replay_trace.py"
HEAVY = bool(os.environ.get("QCE_TEST_HEAVY"))

# our own programs: shots that are random (the draws of the shot and of the harness interleave),
# answers read from the harness's frames in the program's process (accepted by the contest's
# loop; each call's answer is replayed in order), a circuit that changes after its first call, a
# process_output that returns nothing a number
RANDOM_400 = """
import pennylane as qml


@qml.qnode(dev)  # noqa: F821
def circuit(project_execution):
    for w in ["e1", "e2", "e3", "e4", "result"]:
        qml.Hadamard(wires=w)
    project_execution(wires=wires)  # noqa: F821
    qml.RY(0.3, wires="e2")
    return qml.sample(wires=dev.wires)  # noqa: F821


def process_output(measurement):
    return "e" + str(1 + int(measurement[0]) + 2 * int(measurement[1]))
"""

FRAMES_400 = """
import sys
import pennylane as qml


@qml.qnode(dev)  # noqa: F821
def circuit(project_execution):
    qml.Hadamard(wires="e3")
    project_execution(wires=wires)  # noqa: F821
    return qml.sample(wires=dev.wires)  # noqa: F821


def process_output(measurement):
    f = sys._getframe(1)
    while f is not None and "lazy" not in f.f_locals:
        f = f.f_back
    return "e" + str(f.f_locals["lazy"] + 1 if f is not None else 1)
"""

RANDOM_500 = """
import pennylane as qml

CALLS = []


@qml.qnode(dev)  # noqa: F821
def circuit(U):
    CALLS.append(1)
    qml.Hadamard(wires=0)
    qml.ctrl(U, control=0)(wires=1)
    if len(CALLS) > 1:
        qml.RX(0.7, wires=0)
    return qml.sample(wires=range(2))


def process_output(measurement):
    return 2 if int(measurement[0]) + int(measurement[1]) == 1 else 4
"""

EMPTY_500 = """
import numpy
import pennylane as qml


@qml.qnode(dev)  # noqa: F821
def circuit(U):
    qml.Hadamard(wires=1)
    U(wires=1)
    return qml.sample(wires=range(2))


def process_output(measurement):
    return numpy.zeros((0, 1))
"""


def _code(name: str) -> str:
    return (SOLUTIONS / name).read_text()


#: name -> (challenge, program, verdict, answers the replay traces: 2 tests x 5,000 trials, or
#: none where the first answer is rejected)
PROGRAMS = {
    "400_good": ("2023/office_hijinks_400", lambda: _code("office_hijinks_400.py"), "AC", 10_000),
    "400_wrong": ("2023/office_hijinks_400", lambda: _code("office_hijinks_400.wrong.py"), "WA",
                  10_000),
    "400_random": ("2023/office_hijinks_400", lambda: RANDOM_400, "WA", 10_000),
    "400_frames": ("2023/office_hijinks_400", lambda: FRAMES_400, "AC", 10_000),
    "500_good": ("2023/office_hijinks_500", lambda: _code("office_hijinks_500.py"), "AC", 10_000),
    "500_wrong": ("2023/office_hijinks_500", lambda: _code("office_hijinks_500.wrong.py"), "WA",
                  10_000),
    "500_random": ("2023/office_hijinks_500", lambda: RANDOM_500, "WA", 10_000),
    "500_empty": ("2023/office_hijinks_500", lambda: EMPTY_500, "WA", 0),
}


def _judged(judge, problem, code, sandbox):
    """Stage 1's results and the trusted job's result, run as a traced replay."""
    results = sandbox.run_jobs(judge.jobs(problem, code))
    planned = judge.decide(problem, code, results)
    assert isinstance(planned, list) and len(planned) == 1, planned
    harness, check = judge.trusted_check(problem)
    source = (_embed.modules_source(trusted) + TRACE.read_text()
              + f"\nmain({harness!r}, {check!r})\n")
    job = dataclasses.replace(planned[0], source=source,
                              collect=(*planned[0].collect, "qce_trace.json"))
    [traced] = sandbox.run_jobs([job])
    assert traced.ok, (traced.status, traced.stderr[-2000:])
    return results, traced


@pytest.mark.era
@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.skipif(not HEAVY, reason="5,000 trials per test, judged twice: QCE_TEST_HEAVY=1")
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_fast_replay_draws_the_same_shots(name, qhack_problems, sandbox):
    cid, code_of, status, answers = PROGRAMS[name]
    problem, code = qhack_problems[cid], code_of()
    slow_judge = qhack.make_judge(env="era", state_cache=False)
    fast_judge = qhack.make_judge(env="era")
    slow_1, slow_t = _judged(slow_judge, problem, code, sandbox)
    fast_1, fast_t = _judged(fast_judge, problem, code, sandbox)
    # the program's job: the same output and record with the oracle memo
    assert [r.files for r in slow_1] == [r.files for r in fast_1]
    slow, fast = (json.loads(t.files["qce_trace.json"]) for t in (slow_t, fast_t))
    assert slow["counts"] == {"hits": 0, "misses": 0, "memo_hits": 0}
    if answers:  # the fast path was taken
        assert fast["counts"]["hits"] > 9000 and fast["counts"]["memo_hits"] > 9000, \
            fast["counts"]
    # every replayed shot and answer of both tests, in order
    assert len(slow["calls"]) == answers
    assert slow["calls"] == fast["calls"]
    assert slow_t.files[CHECKED_FILE] == fast_t.files[CHECKED_FILE]
    v_slow = slow_judge.decide(problem, code, [*slow_1, slow_t])
    v_fast = fast_judge.decide(problem, code, [*fast_1, fast_t])
    assert (v_slow.status, v_slow.tests_passed) == (v_fast.status, v_fast.tests_passed)
    assert v_fast.status == status, v_fast.message
    print(f"\n{name}: CPU s program jobs {sum(r.cpu_time for r in slow_1):.1f} -> "
          f"{sum(r.cpu_time for r in fast_1):.1f}, trusted {slow_t.cpu_time:.1f} -> "
          f"{fast_t.cpu_time:.1f}")


# ---------------------------------------------------------------- the memo's keys (no era)

def _oracle_class(closed_over):
    import pennylane as qml

    class op(qml.operation.Operator):
        num_wires = 1

        def matrix(self):
            CALLS.append(1)
            return np.diag([1.0, float(len(closed_over))])

    return op


CALLS: list[int] = []


def test_memo_evaluates_each_definition_once():
    memo = statecache.OracleMemo()
    CALLS.clear()
    a, b, c = _oracle_class([1, 2])(wires=0), _oracle_class([1, 2])(wires=0), \
        _oracle_class([1, 2, 3])(wires=0)
    ma, mb, mc = memo.matrix(a), memo.matrix(b), memo.matrix(c)
    assert len(CALLS) == 2 and memo.hits == 1  # b: same code, same values closed over
    assert np.array_equal(ma, mb) and mc[1, 1] == 3.0
    assert a.matrix() is ma and b.matrix() is ma  # pinned: the device reads the same array
    d = _oracle_class([1, 2])(wires=1)  # other wires: evaluated again
    memo.matrix(d)
    assert len(CALLS) == 3


def test_memo_off_and_objects_are_not_keys():
    off = statecache.OracleMemo(enabled=False)
    CALLS.clear()
    off.matrix(_oracle_class([1])(wires=0))
    off.matrix(_oracle_class([1])(wires=0))
    assert len(CALLS) == 2 and off.hits == 0
    memo = statecache.OracleMemo()
    assert memo.key(_oracle_class([object()])(wires=0)) is None  # not data: never memoized


def test_a_matrix_that_draws_is_left_to_the_device():
    import pennylane as qml

    class noisy(qml.operation.Operator):
        num_wires = 1

        def matrix(self):
            return np.diag([1.0, np.random.rand()])

    np.random.seed(3)
    before = np.random.get_state()[1].copy()
    o = noisy(wires=0)
    assert statecache.pin_oracle_ops([o], statecache.OracleMemo()) is None
    assert np.array_equal(np.random.get_state()[1], before)  # its draws undone
    assert "matrix" not in vars(o)  # not pinned
    assert statecache.pin_oracle_ops([qml.PauliX(wires=0)]) is None  # PennyLane's own gate


def test_the_matrix_is_evaluated_outside_the_circuit_being_built():
    # office_hijinks_500's oracle: matrix() builds an RY; the device calls it while executing,
    # so the RY must not be queued into the circuit the memo is called from
    import pennylane as qml

    class ry_oracle(qml.operation.Operator):
        num_wires = 1

        def matrix(self):
            return qml.matrix(qml.RY(2 * np.pi / 3, wires=3))

    with qml.queuing.AnnotatedQueue() as q:
        o = ry_oracle(wires=0)
        statecache.OracleMemo().matrix(o)
    assert list(q.queue) == [o]


def test_a_class_with_its_own_constructor_is_not_memoized():
    # an __init__ may keep its arguments on the instance: the class body no longer defines it
    import pennylane as qml

    class keeps(qml.operation.Operator):
        num_wires = 1

        def __init__(self, secret, wires):
            self.secret = secret
            super().__init__(wires=wires)

        def matrix(self):
            return np.diag([1.0, float(self.secret)])

    assert statecache.OracleMemo().key(keeps(2, wires=0)) is None
