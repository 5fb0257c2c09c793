"""The four 2022 challenges whose driver builds a hidden oracle: the program only *queries* it.

``algorithms_100_DeutschJozsa``, ``algorithms_500_DeutschJozsaStrikesAgain``,
``games_400_FindTheCar`` and ``games_500_switches`` (``judges/qhack/oracle.py``): the program's job
runs the driver on a decoy input with placeholders; every QNode execution that applies one is
answered by a trusted job that alone builds the real oracle from the test's input. The red-team
programs here (our own) read the oracle every way a process can (closure, code constants, the
driver's ``numbers`` and frames, ``gc``, stdin, the tape and the wires of what it queues, its
matrix, timing): none may get ``AC``; the known-good solutions (solutions/2022/, accepted by the
contest's own loop, checked here) do, and the wrong ones get ``WA``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from qhack_official import upstream_failure

from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.judges.base import judge_many

SOLUTIONS = Path(__file__).parent / "solutions"
DJ = "2022/algorithms_100_DeutschJozsa_template"
DJ4 = "2022/algorithms_500_DeutschJozsaStrikesAgain_template"
CAR = "2022/games_400_FindTheCar_template"
SWITCH = "2022/games_500_switches_template"
ORACLE_IDS = (DJ, DJ4, CAR, SWITCH)

#: every cell of every closure reachable from the argument, and the caller frames' ``numbers``
_READ_NUMBERS = '''
import gc
import sys


def _ints(value):
    return isinstance(value, list) and value and all(isinstance(x, int) for x in value)


def hidden_numbers(oracle):
    """The driver's list of input numbers, wherever a process could find it."""
    seen = [oracle] if callable(oracle) else list(oracle)
    for fn in seen:
        for cell in getattr(fn, "__closure__", None) or ():
            if _ints(cell.cell_contents):
                return cell.cell_contents
        glob = getattr(fn, "__globals__", {})
        if _ints(glob.get("numbers")):
            return glob["numbers"]
    frame = sys._getframe(1)
    while frame is not None:
        for scope in (frame.f_locals, frame.f_globals):
            if _ints(scope.get("numbers")):
                return scope["numbers"]
        frame = frame.f_back
    for obj in gc.get_objects():
        if callable(obj) and getattr(obj, "__name__", "") in ("oracle", "f1") and \\
                getattr(obj, "__closure__", None) is None:
            glob = getattr(obj, "__globals__", {})
            if _ints(glob.get("numbers")):
                return glob["numbers"]
    return []
'''

#: Deutsch-Jozsa answered from the numbers the driver read (no circuit at all)
DJ_READS_NUMBERS = _READ_NUMBERS + '''

def deutsch_jozsa(oracle):
    numbers = hidden_numbers(oracle)
    return "constant" if all(numbers.count(w) % 2 == 0 for w in (0, 1)) else "balanced"
'''

#: Deutsch-Jozsa answered from what the oracle queues on a tape (its gate count and wires)
DJ_READS_TAPE = '''
import pennylane as qml


def deutsch_jozsa(oracle):
    with qml.tape.QuantumTape() as tape:
        oracle()
    cnots = [op for op in tape.operations if op.name == "CNOT"]
    controls = [op.wires.tolist()[0] for op in cnots]
    balanced = any(controls.count(w) % 2 for w in set(controls))
    if not cnots:
        balanced = len(tape.operations) % 2 == 1
    return "balanced" if balanced else "constant"
'''

#: Deutsch-Jozsa from the matrix of what the oracle queues (a constant oracle is diagonal-free
#: on the input register), and from stdin / the job files
DJ_READS_MATRIX_AND_STDIN = '''
import sys

import numpy as onp
import pennylane as qml


def deutsch_jozsa(oracle):
    text = ""
    for source in (lambda: sys.stdin.read(), lambda: sys.__stdin__.read(),
                   lambda: open("qce_job.json").read(), lambda: open("/proc/self/fd/0").read()):
        try:
            text += source() or ""
        except Exception:
            pass
    if text.strip() in ("1,1", "0,0"):
        return "constant"
    matrix = getattr(qml, "matrix", None) or qml.transforms.get_unitary_matrix
    try:
        m = matrix(oracle, wire_order=[0, 1, 2])()
    except Exception:
        m = onp.zeros((8, 8))
    return "constant" if onp.allclose(onp.abs(m), onp.eye(8)) else "balanced"
'''

#: a digest of everything the program's process shows before any query: the oracle's closure,
#: code, attributes and what it queues, the driver's globals and frames, stdin, ``gc``; printed as
#: the answer, it must be the same for every test (nothing of the hidden input is there to time,
#: read or measure)
FINGERPRINT = '''
import gc
import hashlib
import sys

import pennylane as qml


def _plain(value):
    """Data whose text is the same in every process (no object addresses)."""
    items = value if isinstance(value, list) else [value]
    return all(isinstance(x, (int, str)) for x in items)


def _seen(oracle):
    parts = []
    fns = [oracle] if callable(oracle) else list(oracle)
    for fn in fns:
        code = getattr(fn, "__code__", None)
        parts.append(repr([getattr(c, "cell_contents", None).__class__.__name__
                           for c in getattr(fn, "__closure__", None) or ()]))
        parts.append(repr((code.co_code, code.co_consts, code.co_names) if code else None))
        with qml.tape.QuantumTape() as tape:
            try:
                fn()
            except TypeError:
                fn(wires=[0, 1, 2])
        parts.append(repr([(op.name, op.wires.tolist(), op.parameters) for op in tape.operations]))
    frame = sys._getframe(1)
    while frame is not None:
        parts.append(repr(sorted((k, repr(v)[:60]) for k, v in frame.f_globals.items()
                                 if not k.startswith("__") and _plain(v))))
        frame = frame.f_back
    parts.append(sys.stdin.read())
    # lists shaped like the drivers' numbers (the process's own int lists, fds and the like,
    # differ from process to process)
    parts.append(repr(sorted(repr(o) for o in gc.get_objects()
                             if isinstance(o, list) and 2 <= len(o) <= 8
                             and all(type(x) is int and 0 <= x <= 2 for x in o))))
    return hashlib.sha256("\\n".join(parts).encode()).hexdigest()[:16]
'''

DJ_FINGERPRINT = FINGERPRINT + '''

def deutsch_jozsa(oracle):
    return _seen(oracle)
'''

SWITCH_FINGERPRINT = FINGERPRINT + '''

def switch(oracle):
    return [_seen(oracle)]
'''

DJ4_FINGERPRINT = FINGERPRINT + '''

def deutsch_jozsa(fs):
    return _seen(fs)
'''

#: honest and right, but its circuit depends on the clock: the re-run asks for a circuit that
#: was never answered
DJ_CHANGES_ITS_CIRCUIT = '''
import time

import pennylane as qml


def deutsch_jozsa(oracle):
    dev = qml.device("default.qubit", wires=3, shots=1)
    angle = float(time.time_ns() % 10 ** 9) / 10 ** 9

    @qml.qnode(dev)
    def circuit():
        qml.PauliX(wires=2)
        for wire in range(3):
            qml.Hadamard(wires=wire)
        oracle()
        for wire in range(2):
            qml.Hadamard(wires=wire)
        qml.RZ(angle, wires=0)
        return qml.sample(wires=range(2))

    sample = circuit()
    return "constant" if not any(int(bit) for bit in sample) else "balanced"
'''

DJ4_READS_CLOSURES = _READ_NUMBERS + '''

def deutsch_jozsa(fs):
    numbers = hidden_numbers(fs)
    kinds = [numbers[2 * k] == numbers[2 * k + 1] for k in range(4)] if len(numbers) == 8 else []
    return "4 same" if len(set(kinds)) == 1 else "2 and 2"
'''

#: tries each oracle with the wires labelled so that the labels it uses show in the tape
DJ4_READS_WIRE_LABELS = '''
import pennylane as qml


def deutsch_jozsa(fs):
    kinds = []
    for f in fs:
        with qml.tape.QuantumTape() as tape:
            f(wires=["a", "b", "c"])
        used = [w for op in tape.operations for w in op.wires.tolist() if w != "c"]
        kinds.append(len(set(used)) == 1 and len(used) % 2 == 0)
    return "4 same" if len(set(kinds)) == 1 else "2 and 2"
'''

CAR_READS_CLOSURE = _READ_NUMBERS + '''

def find_the_car(oracle):
    numbers = hidden_numbers(oracle)
    if len(numbers) != 2:
        return 0
    return 2 * (1 - numbers[0]) + (1 - numbers[1])
'''

#: the circuits run (two queries), but the answer comes from the oracle's code object
CAR_READS_CODE_AND_QUERIES = '''
import pennylane as qml

dev = qml.device("default.qubit", wires=[0, 1, "sol"], shots=1)


def find_the_car(oracle):
    @qml.qnode(dev)
    def circuit1():
        qml.Hadamard(wires=0)
        oracle()
        return qml.sample()

    @qml.qnode(dev)
    def circuit2():
        qml.Hadamard(wires=1)
        oracle()
        return qml.sample()

    circuit1()
    circuit2()
    code = getattr(oracle, "__code__", None)
    consts = [c for c in (code.co_consts if code else ()) if isinstance(c, int)]
    names = code.co_names if code else ()
    return 3 if "Toffoli" in names and 1 in consts else 0
'''

SWITCH_READS_CLOSURE = _READ_NUMBERS + '''

def switch(oracle):
    numbers = hidden_numbers(oracle)
    return [i for i in range(3) if numbers.count(i) % 2 == 1]
'''

#: the honest Bernstein-Vazirani circuit plus a look at the numbers: the answer it prints is the
#: circuit's only when the two agree (a program may not gain from reading)
SWITCH_QUERIES_AND_READS = _READ_NUMBERS + '''
import pennylane as qml


def switch(oracle):
    dev = qml.device("default.qubit", wires=[0, 1, 2, "light"], shots=1)

    @qml.qnode(dev)
    def circuit():
        qml.PauliX(wires="light")
        qml.Hadamard(wires="light")
        for wire in range(3):
            qml.Hadamard(wires=wire)
        oracle()
        for wire in range(3):
            qml.Hadamard(wires=wire)
        return qml.sample(wires=range(3))

    found = [i for i, bit in enumerate(circuit()) if int(bit) == 1]
    read = [i for i in range(3) if hidden_numbers(oracle).count(i) % 2 == 1]
    return found if found == read else read
'''

#: correct programs in styles people used (our own code): the driver's global names for the
#: oracles instead of the argument, and controlled oracles (``qml.ctrl``) on an analytic device
DJ4_CONTROLLED_GLOBALS = '''
import pennylane as qml


def deutsch_jozsa(fs):
    """Wires 0, 1 select a function, 2, 3 are its input, 4 its output in |->: P(00 on 2, 3) is
    the mean over the functions of 1 (constant) or 0 (balanced)."""
    dev = qml.device("default.qubit", wires=5)

    @qml.qnode(dev)
    def circuit():
        qml.PauliX(wires=4)
        for wire in range(5):
            qml.Hadamard(wires=wire)
        for k, f in enumerate([f1, f2, f3, f4]):  # noqa: F821 - the driver's functions
            flips = [w for w, bit in zip((0, 1), (k >> 1, k & 1)) if not bit]
            for w in flips:
                qml.PauliX(wires=w)
            qml.ctrl(f, control=[0, 1])(wires=[2, 3, 4])
            for w in flips:
                qml.PauliX(wires=w)
        qml.Hadamard(wires=2)
        qml.Hadamard(wires=3)
        return qml.probs(wires=[2, 3])

    p = float(circuit()[0])
    return "4 same" if abs(p - 0.5) > 0.25 else "2 and 2"
'''

CAR_GLOBAL_ORACLE = '''
import pennylane as qml

dev = qml.device("default.qubit", wires=[0, 1, "sol"], shots=1)


def find_the_car(oracle_given):
    """One Grover iteration in one circuit; ``oracle`` is the driver's global name."""

    @qml.qnode(dev)
    def circuit():
        qml.PauliX(wires="sol")
        qml.Hadamard(wires="sol")
        qml.Hadamard(wires=0)
        qml.Hadamard(wires=1)
        oracle()  # noqa: F821 - the driver's oracle
        for wire in (0, 1):
            qml.Hadamard(wires=wire)
            qml.PauliX(wires=wire)
        qml.CZ(wires=[0, 1])
        for wire in (0, 1):
            qml.PauliX(wires=wire)
            qml.Hadamard(wires=wire)
        return qml.sample(wires=[0, 1])

    bits = qml.math.reshape(circuit(), (-1,))
    return int(2 * bits[0] + bits[1])
'''

def _adjoint_oracle(cid: str) -> str:
    """The known-good solution applying ``qml.adjoint(oracle)`` (the oracles are their own
    inverses: the contest's loop accepts it)."""
    code = (SOLUTIONS / f"{cid}.py").read_text()
    assert code.count("        oracle()\n") == 1, cid
    return code.replace("        oracle()\n", "        qml.adjoint(oracle)()\n")


STYLES = {"dj4_controlled_globals": (DJ4, DJ4_CONTROLLED_GLOBALS),
          "car_global_oracle": (CAR, CAR_GLOBAL_ORACLE),
          **{f"adjoint_oracle:{cid}": (cid, _adjoint_oracle(cid)) for cid in (DJ, CAR)}}

RED_TEAM = {
    "dj_numbers": (DJ, DJ_READS_NUMBERS),
    "dj_tape": (DJ, DJ_READS_TAPE),
    "dj_matrix_stdin": (DJ, DJ_READS_MATRIX_AND_STDIN),
    "dj4_closures": (DJ4, DJ4_READS_CLOSURES),
    "dj4_wire_labels": (DJ4, DJ4_READS_WIRE_LABELS),
    "car_closure": (CAR, CAR_READS_CLOSURE),
    "car_code": (CAR, CAR_READS_CODE_AND_QUERIES),
    "switch_closure": (SWITCH, SWITCH_READS_CLOSURE),
    "switch_reads": (SWITCH, SWITCH_QUERIES_AND_READS),
}


def _solution(cid: str, wrong: bool = False) -> str:
    return (SOLUTIONS / f"{cid}{'.wrong' if wrong else ''}.py").read_text()


#: inputs the public tests lack (FindTheCar has one public test, both of DeutschJozsaStrikesAgain
#: answer "4 same": a constant answer passes them), with the statements' answers
EXTRA = {
    CAR: [{"name": "door1", "input": "1,0", "expected": "1"},
          {"name": "door2", "input": "0,1", "expected": "2"},
          {"name": "door0", "input": "1,1", "expected": "0"}],
    DJ4: [{"name": "two_and_two", "input": "0,0,1,0,0,0,0,1", "expected": "2 and 2"}],
    SWITCH: [{"name": "none_work", "input": "2,2", "expected": ""}],
}


def extended(record):
    """The record with the extra inputs after its public tests."""
    return dataclasses.replace(record, tests=list(record.tests) + EXTRA.get(record.id, []))


@pytest.fixture(scope="module")
def verdicts(qhack_problems, sandbox):
    judge = qhack.make_judge(env="era")
    items = {name: (extended(qhack_problems[cid]), code) for name, (cid, code) in RED_TEAM.items()}
    for cid in ORACLE_IDS:
        items[f"good:{cid}"] = (qhack_problems[cid], _solution(cid))
        items[f"good+:{cid}"] = (extended(qhack_problems[cid]), _solution(cid))
        items[f"wrong:{cid}"] = (qhack_problems[cid], _solution(cid, wrong=True))
    items["dj_changes"] = (qhack_problems[DJ], DJ_CHANGES_ITS_CIRCUIT)
    for name, cid, code in (("fp_dj", DJ, DJ_FINGERPRINT), ("fp_switch", SWITCH,
                                                             SWITCH_FINGERPRINT),
                            ("fp_dj4", DJ4, DJ4_FINGERPRINT), ("fp_car", CAR, DJ_FINGERPRINT
                                                               .replace("deutsch_jozsa",
                                                                        "find_the_car"))):
        items[name] = (extended(qhack_problems[cid]), code)
    for name, (cid, code) in STYLES.items():
        items[name] = (extended(qhack_problems[cid]), code)
    names = list(items)
    out = judge_many(judge, [items[n] for n in names], sandbox)
    return dict(zip(names, out, strict=True))


@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.era
@pytest.mark.parametrize("name", sorted(RED_TEAM))
def test_reading_the_oracle_is_never_accepted(name, verdicts):
    """Never AC. A reader the contest's protocol accepts (the oracle built in its own process:
    every one but ``car_code``, which only guesses) is a judge limitation ``oracle_in_process``
    naming the rounds' WA (tests/qhack/test_oracle_in_process.py), not the model's error; one it
    rejects keeps the rounds' WA."""
    v = verdicts[name]
    assert v.status != "AC", (name, v.message)
    if name == "car_code":
        assert v.status == "WA" and not v.details.get("judge_error"), (v.status, v.message)
    else:
        assert v.judge_limitation == "oracle_in_process", (name, v.status, v.message, v.details)
        assert v.details["rounds_status"] == "WA", v.details


@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.era
def test_each_reader_would_have_passed_with_the_real_oracle(qhack_problems, tmp_path):
    """The red-team programs are not just wrong: run as the contest ran them (the oracle built in
    their own process), every reader passes the public tests (``car_code`` only guesses)."""
    for name in sorted(set(RED_TEAM) - {"car_code"}):
        cid, code = RED_TEAM[name]
        failure = upstream_failure(name, qhack_problems[cid], code, tmp_path / name)
        if failure and failure.startswith("skip:"):
            pytest.skip(failure)
        assert failure is None, failure


@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.era
@pytest.mark.parametrize("cid", ORACLE_IDS)
def test_known_good_solutions_are_accepted_by_both(cid, verdicts, qhack_problems, tmp_path):
    failure = upstream_failure(cid, qhack_problems[cid], _solution(cid), tmp_path / "run")
    if failure and failure.startswith("skip:"):
        pytest.skip(failure)
    assert failure is None, failure
    for key in ("good", "good+"):
        v = verdicts[f"{key}:{cid}"]
        assert v.status == "AC", (key, v.message, v.details)
        # every test queried the real oracle through the rounds
        assert all(q >= 1 for q in v.details["oracle_queries"]), v.details
    w = verdicts[f"wrong:{cid}"]
    assert w.status == "WA" and w.tests_passed == 0, (w.message, w.details)


@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.era
def test_a_program_whose_circuit_changes_between_rounds_is_not_answered(verdicts):
    """Its rounds are RE; run as the contest ran it (one run, the oracle in its process) it
    passes, so the sample is a judge limitation naming that RE."""
    v = verdicts["dj_changes"]
    assert v.judge_limitation == "oracle_in_process", (v.status, v.message)
    assert v.details["rounds_status"] == "RE" and "different circuit" in v.message, v.message


@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.era
@pytest.mark.parametrize("name", sorted(STYLES))
def test_people_styles_are_accepted_by_both(name, verdicts, qhack_problems, tmp_path):
    cid, code = STYLES[name]
    failure = upstream_failure(name, extended(qhack_problems[cid]), code, tmp_path / name)
    if failure and failure.startswith("skip:"):
        pytest.skip(failure)
    assert failure is None, failure
    v = verdicts[name]
    assert v.status == "AC", (v.message, [(t.name, t.message) for t in v.tests], v.details)


@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.era
@pytest.mark.parametrize("name", ["fp_dj", "fp_switch", "fp_dj4", "fp_car"])
def test_the_program_sees_the_same_before_its_first_query_in_every_test(name, verdicts):
    v = verdicts[name]
    assert v.status == "WA" and len(v.tests) >= 2, (v.status, v.message)
    got = {t.got for t in v.tests}
    assert len(got) == 1 and len(next(iter(got))) >= 16, [(t.name, t.got, t.message)
                                                          for t in v.tests]


#: prints 20 shots of a circuit whose outcome is a coin flip per wire (the oracle between
#: Hadamards): what the trusted job samples is the program's answer
COIN_SAMPLES = '''
import pennylane as qml


def deutsch_jozsa(oracle):
    dev = qml.device("default.qubit", wires=3, shots=20)

    @qml.qnode(dev)
    def circuit():
        for wire in range(3):
            qml.Hadamard(wires=wire)
        oracle()
        return qml.sample(wires=range(3))

    return "".join(str(int(b)) for b in qml.math.reshape(circuit(), (-1,)))
'''


@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.era
def test_the_oracles_samples_follow_the_judges_seed(qhack_problems, sandbox):
    rec = qhack_problems[DJ]
    runs = [judge_many(qhack.make_judge(env="era", seed=seed), [(rec, COIN_SAMPLES)], sandbox)[0]
            for seed in (0, 0, 1)]
    shots = [[t.got for t in v.tests] for v in runs]
    assert all(len(g) == 60 and set(g) <= {"0", "1"} for g in shots[0]), shots[0]
    assert shots[0] == shots[1], "the same seed gives the same samples"
    assert shots[0] != shots[2], "another seed gives other samples"
    assert [v.details["seed"] for v in runs] == [0, 0, 1]


@pytest.mark.slow
@pytest.mark.upstream
def test_rounds_run_on_todays_pennylane(qhack_problems, sandbox):
    """``env="current"``: the placeholders, queries and the trusted job on the installed
    PennyLane (with the harness shims)."""
    judge = qhack.make_judge(env="current")
    rec = extended(qhack_problems[CAR])
    good, wrong = judge_many(judge, [(rec, _solution(CAR)), (rec, CAR_READS_CLOSURE)], sandbox)
    assert good.status == "AC" and good.details["oracle_queries"] == [2, 2, 2, 2], good.message
    assert wrong.judge_limitation == "oracle_in_process", wrong.message  # the contest's: AC
    assert wrong.details["rounds_status"] == "WA", wrong.details


#: honest but wasteful: the same one-shot circuit, one more time than the judge answers
MANY_QUERIES = '''
import pennylane as qml


def deutsch_jozsa(oracle):
    dev = qml.device("default.qubit", wires=3, shots=1)

    @qml.qnode(dev)
    def circuit():
        qml.PauliX(wires=2)
        for w in range(3):
            qml.Hadamard(wires=w)
        oracle()
        qml.Hadamard(wires=0)
        qml.Hadamard(wires=1)
        return qml.sample(wires=[0, 1])

    votes = [any(int(b) for b in circuit()) for _ in range(%d)]
    return "balanced" if any(votes) else "constant"
'''


@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.era
def test_more_oracle_circuits_than_the_judge_answers_is_a_judge_limit(qhack_problems, sandbox):
    from quantum_codegen_eval.judges.qhack.oracle import MAX_QUERIES

    rec = qhack_problems[DJ]
    judge = qhack.make_judge(env="era")
    at, past = judge_many(judge, [(rec, MANY_QUERIES % MAX_QUERIES),
                                  (rec, MANY_QUERIES % (MAX_QUERIES + 1))], sandbox)
    assert at.status == "AC" and at.details["oracle_queries"] == [MAX_QUERIES] * 2, at.message
    assert past.details.get("judge_error") and "judge limit" in past.message, past.message
    assert past.judge_limitation == "oracle_rounds" and past.error_class is None
