"""Known weak upstream checks: a wrong program (solutions/weak/, written here) passes the official
public tests, and the record says so in ``weak_check``. Each test shows the program is wrong
(an extra input with the statement's answer, the accepted outputs themselves, or the rule it
breaks), so a fixed check upstream or a changed judge would make the test fail."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.judges.base import judge_many

pytestmark = pytest.mark.era  # QHack era environments

WEAK = Path(__file__).parent / "solutions" / "weak"


def _wrong(cid: str) -> str:
    return (WEAK / f"{cid}.py").read_text()


def _clock(hour: int, minute: int) -> list[float]:
    """The statement's answer: hands at angles 2*pi*(h + m/60)/12 and 2*pi*m/60 on the circle."""
    th, tm = 2 * np.pi * (hour + minute / 60) / 12, 2 * np.pi * minute / 60
    ph = [np.cos(th / 2) ** 2, np.sin(th / 2) ** 2]
    pm = [np.cos(tm / 2) ** 2, np.sin(tm / 2) ** 2]
    return [float(x) for x in np.kron(ph, pm)]


def _ising_ground(h: float) -> float:
    """Exact ground energy of the closed 4-site transverse Ising chain."""
    z, x, i2 = np.diag([1.0, -1.0]), np.array([[0.0, 1.0], [1.0, 0.0]]), np.eye(2)

    def op(single, site):
        out = np.array([[1.0]])
        for k in range(4):
            out = np.kron(out, single if k == site else i2)
        return out

    ham = sum(-op(z, k) @ op(z, (k + 1) % 4) for k in range(4)) - h * sum(op(x, k)
                                                                        for k in range(4))
    return float(np.linalg.eigvalsh(ham)[0])


def test_weak_checks_are_recorded(qhack_problems):
    weak = {pid for pid, r in qhack_problems.items() if r.weak_check}
    assert weak >= {"2023/office_hijinks_100", "2023/fall_of_sqynet_500",
                    "2024/to_view_or_not_to_view",
                    "2022/algorithms_500_DeutschJozsaStrikesAgain_template",
                    "2022/qml_300_IsingOnTheCake_template", "2024/lazy_workers_terminal",
                    "2024/ruins_oasis",
                    # judged AC in test_hidden_oracles.py, with the contest's loop
                    "2024/fireworks_qutropolis", "2023/office_hijinks_400",
                    # judged AC in test_attacks_and_unusual_styles.py (one batch with the other red-team programs)
                    "2024/GHZ_inn", "2024/market_quantum_trinkets", "2023/fall_of_sqynet_400"}
    for pid in weak:
        path = WEAK / f"{pid}.py"
        assert path.is_file() and str(path.relative_to(Path(__file__).parents[2])) in \
            qhack_problems[pid].weak_check, pid


def test_oracle_readers_are_wrong():
    """The weak programs judged in test_hidden_oracles.py answer from the oracle's closure:
    fireworks_qutropolis without a query, office_hijinks_400 with one that acts on nothing."""
    fireworks = _wrong("2024/fireworks_qutropolis")
    assert "__closure__" in fireworks and "oracle(" not in fireworks
    office = _wrong("2023/office_hijinks_400")
    assert "__closure__" in office and office.count("project_execution(wires=") == 1


@pytest.fixture(scope="module")
def judge():
    return qhack.make_judge(env="era")


@pytest.mark.slow
@pytest.mark.upstream
def test_weak_checks_accept_wrong_programs(judge, qhack_problems, sandbox):
    ids = ["2023/office_hijinks_100", "2023/fall_of_sqynet_500", "2024/to_view_or_not_to_view",
           "2022/algorithms_500_DeutschJozsaStrikesAgain_template",
           "2022/qml_300_IsingOnTheCake_template", "2024/lazy_workers_terminal",
           "2024/ruins_oasis"]
    recs = [qhack_problems[i] for i in ids]
    # the same programs on one more input each, with the statement's answer
    extra = {
        "2023/office_hijinks_100": {"name": "extra", "input": "[3, 59]",
                                    "expected": json.dumps(_clock(3, 59))},
        "2022/algorithms_500_DeutschJozsaStrikesAgain_template": {
            # f1 constant (same wire twice), f2 balanced, f3 constant, f4 balanced
            "name": "extra", "input": "0,0,1,0,0,0,0,1", "expected": "2 and 2\n"},
    }
    more = [dataclasses.replace(qhack_problems[i], tests=[t]) for i, t in extra.items()]
    items = [(r, _wrong(r.id)) for r in recs + more]
    verdicts = judge_many(judge, items, sandbox)
    public, extra_v = verdicts[:len(recs)], dict(zip(extra, verdicts[len(recs):], strict=True))
    assert {v.problem_id: v.status for v in public} == dict.fromkeys(ids, "AC"), [
        (v.problem_id, v.message, [(t.name, t.message) for t in v.tests]) for v in public]
    # office_hijinks_100, DeutschJozsaStrikesAgain: wrong on an input the public tests lack
    assert {k: v.status for k, v in extra_v.items()} == dict.fromkeys(extra, "WA")
    # fall_of_sqynet_500: the accepted energies are not ground energies
    sqy = public[1]
    for t, case in zip(sqy.tests, qhack_problems["2023/fall_of_sqynet_500"].tests, strict=True):
        exact = _ising_ground(float(case["input"]))
        assert float(case["expected"]) == pytest.approx(exact, rel=1e-6)
        assert float(t.got) > exact + 1e-3, (case["input"], t.got, exact)
    # IsingOnTheCake: the expected output is the input's last column (the labels)
    ising = qhack_problems["2022/qml_300_IsingOnTheCake_template"].tests[0]
    values = [v.strip() for v in ising["input"].split(",")]
    ncol = len(values) // 250
    assert ising["expected"].strip().split(",") == values[ncol - 1::ncol]
    # lazy_workers_terminal: the accepted circuit reads the workers out of the oracle's matrix
    # instead of searching with it (tests/qhack/test_hidden_oracles.py: the contest accepts it)
    assert "qml.matrix(op.decomposition()" in _wrong("2024/lazy_workers_terminal")
    # ruins_oasis: the accepted circuit reads the answer out of each oracle's matrix; its one
    # query, on |00> with wire 2 in |+>, only adds a phase (test_hidden_oracles.py: the contest
    # accepts it)
    assert "qml.matrix(oracle(wires=[0, 1, 2]))" in _wrong("2024/ruins_oasis")
    # to_view_or_not_to_view: the accepted circuit uses a gate the statement forbids
    assert "qml.CNOT" in _wrong("2024/to_view_or_not_to_view")
    assert "You may only use the Pauli X" in qhack_problems["2024/to_view_or_not_to_view"].statement
