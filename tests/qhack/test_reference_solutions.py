"""Our own reference solutions for QHack challenges, judged by the real QHack judge.

``solutions/<year>/<challenge>.py`` is a completion as a model would write it (only the functions
the template asks for, with their imports); it must get ``AC`` on every public test in the
challenge's era environment. ``<challenge>.wrong.py`` runs fine but is wrong on purpose; it must
get ``WA``, with exactly the public tests listed in ``WRONG_FAILS`` failing (and named in the
verdict's per-test results). The solutions were written here; no upstream code is in them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.judges.base import judge_one

pytestmark = pytest.mark.era  # QHack era environments

SOLUTIONS = Path(__file__).parent / "solutions"

#: challenge id -> positions (in the record's public tests) where the wrong variant fails
WRONG_FAILS: dict[str, tuple[int, ...]] = {
    "2022/algorithms_100_DeutschJozsa_template": (0, 1),
    "2022/algorithms_500_DeutschJozsaStrikesAgain_template": (0, 1),
    "2022/games_400_FindTheCar_template": (0,),
    "2022/games_500_switches_template": (0, 1),
    "2022/games_100_TardigradeMasquerade_template": (0, 1),
    "2022/pennylane101_100_OrderMatters_template": (0, 1),
    "2022/pennylane101_200_KnowYourDevices_template": (0, 1),
    "2022/pennylane101_300_superdense_coding_template": (0, 1),
    "2022/qchem_100_IsParticlePreserving_template": (1,),
    "2023/bending_bennets_laws_100": (0, 1, 2, 3),
    "2023/bending_bennets_laws_200": (0, 1),
    "2023/bending_bennets_laws_400": (0, 1, 2, 3),
    "2023/bending_bennets_laws_500": (0, 1),
    "2023/fall_of_sqynet_200": (0, 2),
    "2023/tutorial_1": (0, 1),
    "2023/tutorial_2": (0, 1),
    "2023/tutorial_4": (0, 2),
    "2023/tutorial_6": (0, 1),
    "2024/GHZ_inn": (0, 1),
    "2024/chalet_random_gate": (0, 1),
    "2024/contextuality_dunes": (0, 1),
    "2024/hacking_for_upgrayde": (0, 1),
    "2024/mathematicians_at_resort": (0,),
    "2024/ruins_oasis": (0,),
    "2024/to_view_or_not_to_view": (1, 2),
    "2023/a_tale_of_timbits_400": (0, 1),
    "2023/fall_of_sqynet_100": (1, 2, 3),
    "2023/fall_of_sqynet_300": (0, 1, 2, 3),
    "2023/fall_of_sqynet_400": (0, 1, 2, 3),
    "2023/office_hijinks_300": (0, 1, 5, 6, 8, 9, 13, 14, 15, 19),
    "2023/office_hijinks_200": (0, 1),
    "2023/office_hijinks_400": (0, 1),
    "2023/office_hijinks_500": (0, 1),
    "2024/market_quantum_trinkets": (0, 1),
    "2024/wormhole_airdrome": (0, 1),
    "2024/hockey_night_cave": (0, 1),
    "2024/fireworks_qutropolis": (0,),
    "2024/triple_H_hotel": (0, 1),
    "2022/algorithms_200_AdaptingTopology_template": (1,),
    "2022/algorithms_300_AdderQFT_template": (0, 1),
    "2022/games_200_CHSH_template": (0, 1),
    "2022/pennylane101_400_FiniteDifferenceGradient_template": (0, 1),
    "2022/pennylane101_500_BitflipErrorCode_template": (1,),
    "2022/qchem_300_Universality_Givens_template": (0, 1),
    "2023/a_tale_of_timbits_100": (0, 1),
    "2023/a_tale_of_timbits_200": (0, 1, 2),
    "2023/tutorial_3": (1,),
    "2023/tutorial_7": (0, 1),
    "2023/tutorial_8": (0, 1, 2),
    "2024/mach_zender_cabin": (0, 1),
    "2024/rainy_days_retreat": (0,),
    "2022/games_300_Elitzur_Vaidman_template": (1,),
    "2022/algorithms_400_QuantumCounting_template": (0, 1),
    "2022/qchem_200_OptimizingMeasurements_template": (0,),
    "2022/qml_400_BuildingQRAM_template": (2,),
    "2022/qchem_400_TripleGivens_template": (0, 1),
    "2022/qml_200_WhoLikesTheBeatles_template": (0, 1),
    "2023/office_hijinks_100": (1, 2, 3),
    "2023/a_tale_of_timbits_300": (0, 1, 2, 4),
    "2023/bending_bennets_laws_300": (1, 6),
    "2023/a_tale_of_timbits_500": (1, 2),
    "2024/coffee_conundrum": (0, 1),
    "2024/mojito_hhlime_twist": (0, 1),
    "2024/travelling_eigentracks": (0, 1),
    "2024/QSP_swamp": (0,),
    "2024/three_shipping_companies": (0,),
    "2024/lazy_workers_terminal": (0,),
    "2022/qml_300_IsingOnTheCake_template": (0,),
    "2022/qml_100_GeneratingFourierState_template": (0, 1),
    "2023/fall_of_sqynet_500": (1, 3),
}


#: harnesses too slow for every run (SOLUTIONS/HEAVY.txt): judged only with QCE_TEST_HEAVY=1
HEAVY = {line for line in (SOLUTIONS / "HEAVY.txt").read_text().splitlines()
         if line and not line.startswith("#")}


def _solution_ids(heavy: bool = bool(os.environ.get("QCE_TEST_HEAVY"))) -> list[str]:
    return sorted(cid for cid in (f"{p.parent.name}/{p.name.removesuffix('.py')}"
                                  for p in SOLUTIONS.glob("*/*.py")
                                  if not p.name.endswith(".wrong.py"))
                  if heavy or cid not in HEAVY)


def _code(challenge_id: str, wrong: bool = False) -> str:
    return (SOLUTIONS / f"{challenge_id}{'.wrong' if wrong else ''}.py").read_text()


@pytest.fixture(scope="module")
def judge():
    return qhack.make_judge(env="era")


def test_fixture_set_is_complete():
    ids = _solution_ids(heavy=True)
    assert ids == sorted(WRONG_FAILS), "every solution needs a wrong variant entry, and back"
    for cid in ids:
        assert (SOLUTIONS / f"{cid}.wrong.py").is_file(), f"{cid}: no .wrong.py variant"
    for year in ("2022", "2023", "2024"):
        assert sum(cid.startswith(f"{year}/") for cid in ids) >= 5, f"fewer than 5 for {year}"


@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.parametrize("challenge_id", _solution_ids())
def test_reference_solution_is_accepted(challenge_id, judge, qhack_problems, sandbox):
    record = qhack_problems[challenge_id]
    assert record.tests, f"{challenge_id} has no public tests to accept against"
    v = judge_one(judge, record, _code(challenge_id), sandbox)
    assert v.status == "AC", (challenge_id, v.message, [(t.name, t.status) for t in v.tests])
    assert v.tests_passed == v.tests_total == len(record.tests)
    assert v.details["python"].endswith(f"/qhack-{record.year}/bin/python")


@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.parametrize("challenge_id", _solution_ids())
def test_wrong_variant_gets_wa_naming_the_failing_tests(challenge_id, judge, qhack_problems,
                                                        sandbox):
    record = qhack_problems[challenge_id]
    v = judge_one(judge, record, _code(challenge_id, wrong=True), sandbox)
    expected = {record.tests[i]["name"] for i in WRONG_FAILS[challenge_id]}
    failed = {t.name for t in v.tests if not t.passed}
    assert v.status == "WA" and v.error_class == "reasoning", (challenge_id, v.status, v.message)
    assert failed == expected, (challenge_id, [(t.name, t.status, t.message) for t in v.tests])
    assert all(t.status == "WA" for t in v.tests if not t.passed)
    assert v.tests_passed == len(record.tests) - len(expected)
