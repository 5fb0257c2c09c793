"""Multi-controlled operations in circuit checks and recorded replays: the judge must decide
as the contest did.

The contest's simulator applied a ``qml.ctrl`` result or a ``MultiControlledX`` whole. The judge's
circuit checks emitted PennyLane's decomposition instead, which in the era environments fails
(0.34: ``MultiControlledX`` without work wires), brings in ``QubitUnitary`` pieces (0.34: seven
controls on ``PauliY``, which ``three_shipping_companies`` then rejects), leaves gates the
trusted side cannot rebuild (0.28: ``C(RZ)``) or drops the controlled global phase (0.34:
``C(PhaseShift)``): accepted programs were WA. The recorded replay turned a
``MultiControlledX`` into its matrix, a ``QubitUnitary`` that ``fireworks_qutropolis`` rejects.
Each program in ``solutions/controlled/<year>/<challenge>/`` (ours; ``wrong_*`` ones are wrong
on purpose) is run through the contest's own loop in the era interpreter and judged; both must
give the expected verdict.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from qhack_official import upstream_failure

from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.judges.base import judge_many
from quantum_codegen_eval.judges.qhack.jobs import circuit_check, payload
from quantum_codegen_eval.judges.qhack.jobs.gates import CONTROLLED

PROGRAMS = Path(__file__).parent / "solutions" / "controlled"

#: name -> (challenge id, program); "<year>/<challenge>/<style>"
CASES: dict[str, tuple[str, str]] = {
    f"{p.parent.parent.name}/{p.parent.name}/{p.stem}": (
        f"{p.parent.parent.name}/{p.parent.name}", p.read_text(encoding="utf-8"))
    for p in sorted(PROGRAMS.glob("*/*/*.py"))}


def _expected(name: str) -> str:
    return "WA" if name.rsplit("/", 1)[1].startswith("wrong") else "AC"


def test_the_cases_cover_four_challenges_and_both_verdicts():
    assert {c for c, _ in CASES.values()} == {
        "2023/bending_bennets_laws_200", "2024/fireworks_qutropolis", "2024/lazy_workers_terminal",
        "2024/three_shipping_companies"}
    assert {_expected(n) for n in CASES} == {"AC", "WA"}


@pytest.fixture(scope="module")
def contest(qhack_problems, tmp_path_factory):
    out = tmp_path_factory.mktemp("contest")
    return {name: upstream_failure(name, qhack_problems[cid], code, out / name.replace("/", "_"))
            for name, (cid, code) in CASES.items()}


@pytest.fixture(scope="module")
def verdicts(qhack_problems, sandbox):
    items = [(qhack_problems[cid], code) for cid, code in CASES.values()]
    return dict(zip(CASES, judge_many(qhack.make_judge(env="era"), items, sandbox), strict=True))


@pytest.mark.era
@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.parametrize("name", list(CASES))
def test_the_contest_gives_the_expected_verdict(contest, name):
    failure = contest[name]
    if failure is not None and failure.startswith("skip:"):
        pytest.skip(failure)
    assert (failure is None) == (_expected(name) == "AC"), (name, failure)


@pytest.mark.era
@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.parametrize("name", list(CASES))
def test_the_judge_decides_as_the_contest(verdicts, name):
    v = verdicts[name]
    assert v.status == _expected(name), (name, v.message, [(t.name, t.message) for t in v.tests])
    assert not v.details.get("judge_error"), v.details


# ------------------------------------------------ the trusted side reads a controlled operation

REPLAY = circuit_check.STANDARD | {"QubitUnitary", CONTROLLED}


def _ops(*items):
    return {"ops": list(items)}


def test_a_controlled_operation_is_rebuilt_with_its_control_values():
    import pennylane as qml

    ops = circuit_check.circuit_ops(
        _ops([CONTROLLED, [0, 1, 2], [1, 0, 1], ["PauliY", [3], []]]), REPLAY, range(4))
    with qml.tape.QuantumTape() as tape:
        circuit_check.apply_ops(ops)
    (op,) = tape.operations
    want = qml.ctrl(qml.PauliY(wires=3), control=[0, 1, 2], control_values=[1, 0, 1])
    assert qml.math.allclose(qml.matrix(op, wire_order=range(4)),
                             qml.matrix(want, wire_order=range(4)))


@pytest.mark.parametrize(("item", "allowed", "message"), [
    # where the official check restricts the gate set (mathematicians_at_resort), none at all
    ([CONTROLLED, [0], [1], ["Hadamard", [1], []]], {"Hadamard", "T", "QFT"},
     "malformed operation"),
    ([CONTROLLED, [0], [1], ["QCEOracle", [1], []]], REPLAY | {"QCEOracle"},
     "QCEOracle is not allowed"),
    ([CONTROLLED, [0], [1], ["MultiControlledX", [1, 2], []]], REPLAY, "not allowed"),
    ([CONTROLLED, [0], [1], [CONTROLLED, [1], [1], ["PauliX", [2], []]]], REPLAY,
     "malformed operation"),
    ([CONTROLLED, [1], [1], ["PauliX", [1], []]], REPLAY, "bad control wires"),
    ([CONTROLLED, [0, 0], [1, 1], ["PauliX", [1], []]], REPLAY, "bad control wires"),
    ([CONTROLLED, [0, 9], [1, 1], ["PauliX", [1], []]], REPLAY, "bad control wires"),
    ([CONTROLLED, [], [], ["PauliX", [1], []]], REPLAY, "malformed controls"),
    ([CONTROLLED, [0], [2], ["PauliX", [1], []]], REPLAY, "malformed controls"),
    ([CONTROLLED, [0], [True], ["PauliX", [1], []]], REPLAY, "malformed controls"),
    ([CONTROLLED, [0, 2], [1], ["PauliX", [1], []]], REPLAY, "malformed controls"),
    ([CONTROLLED, [0], [1], ["RY", [1], [float("nan")]]], REPLAY, "bad parameters"),
    ([CONTROLLED, [0], [1], ["QubitUnitary", [1], [payload.encode(np.ones((2, 1)))]]], REPLAY,
     "does not match its wires"),
])
def test_a_malformed_controlled_operation_is_a_wrong_answer(item, allowed, message):
    with pytest.raises(AssertionError, match=message):
        circuit_check.circuit_ops(_ops(item), allowed, range(4))
