"""Every one of the 67 specs: its reference solution gets AC over the whole sweep, and each of
its wrong solutions gets WA (plus the UGE/DLE variants some specs carry)."""

from __future__ import annotations

import random

import pytest

from quantum_codegen_eval.judges.base import judge_many
from quantum_codegen_eval.judges.qcoder import QCoderJudge
from quantum_codegen_eval.judges.qcoder.specs import all_specs
from quantum_codegen_eval.judges.qcoder.specs.qpc005 import ex_map, g_list

pytestmark = [pytest.mark.upstream, pytest.mark.slow]
SPECS = all_specs()


@pytest.fixture(scope="module")
def judged(qsandbox, qcoder_records):
    items, keys = [], []
    for pid, spec in SPECS.items():
        items.append((qcoder_records[pid], spec.reference))
        keys.append((pid, "AC"))
        for w in spec.wrong:
            items.append((qcoder_records[pid], w))
            keys.append((pid, "WA"))
        for status in ("uge", "dle"):
            if status in spec.extra:
                items.append((qcoder_records[pid], spec.extra[status]))
                keys.append((pid, status.upper()))
    # wrong solutions stop at their first failing test (full sweeps are for the references)
    full, quick = QCoderJudge(timeout=120), QCoderJudge(timeout=120, first_failure=True)
    refs = [n for n, k in enumerate(keys) if k[1] == "AC"]
    rest = [n for n, k in enumerate(keys) if k[1] != "AC"]
    verdicts = dict(zip(refs, judge_many(full, [items[n] for n in refs], qsandbox), strict=True))
    verdicts |= dict(zip(rest, judge_many(quick, [items[n] for n in rest], qsandbox), strict=True))
    return {k: [] for k in keys} | _group(keys, [verdicts[n] for n in range(len(keys))])


def _group(keys, verdicts):
    out: dict = {}
    for k, v in zip(keys, verdicts, strict=True):
        out.setdefault(k, []).append(v)
    return out


def test_there_are_67_specs_with_wrong_solutions():
    assert len(SPECS) == 67
    assert all(spec.wrong for spec in SPECS.values())


@pytest.mark.parametrize("pid", sorted(SPECS))
def test_reference_ac_and_wrong_wa(judged, pid):
    (ref,) = judged[(pid, "AC")]
    assert ref.status == "AC", (ref.status, ref.message)
    assert ref.tests_passed == ref.tests_total >= 1
    for v in judged[(pid, "WA")]:
        assert v.status == "WA", (v.status, v.message)
    for status in ("UGE", "DLE"):
        for v in judged.get((pid, status), []):
            assert v.status == status, (v.status, v.message)


def test_sweeps_are_seeded_and_cover_small_values():
    a2 = [c["args"]["n"] for c in SPECS["QPC001_A2"].sample(random.Random(1))]
    assert a2 == list(range(1, 11))
    b4 = SPECS["QPC001_B4"]
    assert b4.sample(random.Random(5)) == b4.sample(random.Random(5))
    small = {(c["args"]["n"], c["args"]["L"]) for c in b4.sample(random.Random(0))}
    assert {(n, L) for n in (1, 2, 3) for L in range(1, 2 ** n + 1)} <= small


def test_qpc005_ex_map_matches_the_list_operations():
    rng = random.Random(3)
    for n in (2, 3, 4):
        N = 2 ** n
        for _ in range(40):
            p = {"n": n, "m_before": rng.randrange(2), "k_before": rng.randrange(N),
                 "m_after": rng.randrange(2), "k_after": rng.randrange(N)}
            m, k = rng.randrange(2), rng.randrange(N)
            seq = g_list(n, p["m_after"], p["k_after"],
                         g_list(n, m, k, g_list(n, p["m_before"], p["k_before"], list(range(N)))))
            m2, k2 = ex_map(p, m, k)
            assert g_list(n, m2, k2, list(range(N))) == seq
