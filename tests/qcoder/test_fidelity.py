"""QCoder's partial credit by fidelity (docs/metrics/fidelity.md), checked against Qiskit.

The per-test fidelity of the trusted checker (``Spec.judge``) on real circuits against
``qiskit.quantum_info.state_fidelity`` / ``process_fidelity``; then whole verdicts through the
sandbox: the mean over all tests, 1 for AC, 0 for a program that failed before simulation.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from qiskit import QuantumCircuit
from qiskit.quantum_info import Operator, Statevector, process_fidelity, state_fidelity

from quantum_codegen_eval.judges.qcoder import QCoderJudge
from quantum_codegen_eval.judges.qcoder import simulate as sim
from quantum_codegen_eval.judges.qcoder.specs import get_spec
from quantum_codegen_eval.verdict import Verdict


def _solve(spec, args):
    """The spec's reference solve() (trusted test code) on ``args``."""
    ns: dict = {}
    exec(compile(spec.reference, f"<{spec.id} reference>", "exec"), ns)  # noqa: S102
    return ns["solve"](**{k: v for k, v in args.items() if k in spec.args})


def _case(spec, **args):
    return next(c for c in spec.sample(random.Random(0)) if all(c["args"][k] == v for k, v in args.items()))


def _judge(spec, case, qc):
    return spec.judge(case, sim.inline(qc, {}, allow_reset=spec.mode == "state"), qc.num_qubits, {})


@pytest.mark.parametrize("n", [2, 5])
def test_state_fidelity_matches_qiskit(n):
    spec = get_spec("QPC002_A3")  # GHZ with a minus sign; the global phase is free
    case = _case(spec, n=n)
    target = Statevector(spec.target(case["args"]))
    slightly = _solve(spec, case["args"])
    slightly.ry(0.1, 0)  # a slightly wrong rotation
    ok, _, _, fid = _judge(spec, case, slightly)
    want = state_fidelity(Statevector(slightly), target)
    assert not ok and 0.99 < fid < 1 and fid == pytest.approx(want, abs=1e-12)
    assert fid == pytest.approx(math.cos(0.05) ** 2, abs=1e-12)
    phased = _solve(spec, case["args"])
    phased.global_phase += 1.3  # allowed here: accepted, fidelity 1
    ok, _, _, fid = _judge(spec, case, phased)
    assert ok and fid == pytest.approx(1.0, abs=1e-12)
    assert state_fidelity(Statevector(phased), target) == pytest.approx(1.0, abs=1e-12)


def test_process_fidelity_matches_qiskit():
    spec = get_spec("QPC002_B2")  # a phase on |L>; every column tested for small n
    case = next(c for c in spec.sample(random.Random(0)) if c["args"]["n"] == 3)
    p = case["args"]
    target = Operator(spec.target(p, list(range(2 ** p["n"]))))
    slightly = _solve(spec, p)
    slightly.rz(0.2, 1)
    slightly.rx(0.05, 2)
    ok, _, _, fid = _judge(spec, case, slightly)
    want = process_fidelity(Operator(slightly), target)
    assert not ok and 0.98 < fid < 1 and fid == pytest.approx(want, abs=1e-12)
    phased = _solve(spec, p)
    phased.global_phase -= 2.0
    ok, _, _, fid = _judge(spec, case, phased)
    assert ok and fid == pytest.approx(1.0, abs=1e-12)
    assert process_fidelity(Operator(phased), target) == pytest.approx(1.0, abs=1e-12)


def test_counted_global_phase_costs_fidelity():
    """Where the global phase counts (QPC002_B1: e^(i theta)|0>), the fidelity is
    max(0, Re<target|out>)^2: Qiskit's state fidelity times cos^2 of the phase error."""
    spec = get_spec("QPC002_B1")
    case = _case(spec, theta=0.0)
    for theta in (0.3, 1.0, 2.5):
        case = {**case, "args": {"theta": theta}}
        target = Statevector(spec.target(case["args"]))
        wrong = QuantumCircuit(1)  # |0>: right up to the global phase e^(i theta)
        ok, phase_free, _, fid = _judge(spec, case, wrong)
        assert not ok and state_fidelity(Statevector(wrong), target) == pytest.approx(1.0)
        assert phase_free == pytest.approx(1.0)  # the verdict's own number is unchanged
        assert fid == pytest.approx(max(0.0, math.cos(theta)) ** 2, abs=1e-12)
        right = _solve(spec, case["args"])
        ok, _, _, fid = _judge(spec, case, right)
        assert ok and fid == pytest.approx(1.0, abs=1e-12)


def test_predicate_and_classical_problems_have_no_fidelity():
    spec = get_spec("QPC001_A4")  # accepted by a predicate: no one target state
    case = spec.sample(random.Random(0))[0]
    assert _judge(spec, case, _solve(spec, case["args"]))[3] is None


def test_mean_over_cases_rules():
    """The mean's bookkeeping on given per-test results: 1 for AC, the fidelity for WA, 0 for a
    test not simulated; a judge limit anywhere leaves the mean unknown."""
    from quantum_codegen_eval.judges.qcoder.judge import CaseResult, _mean_fidelity

    spec, cases = get_spec("QPC002_A3"), [{}] * 4
    wa = Verdict("qcoder", "QPC002_A3", "WA")
    checked = {0: CaseResult("AC", credit=0.9999999), 1: CaseResult("WA", credit=0.5),
               2: CaseResult("UGE")}
    got = _mean_fidelity(spec, cases, checked, False, wa)
    assert got == {"mean_fidelity": 1.5 / 4, "fidelity_source": "partly simulated",
                   "fidelity_simulated": 2}
    limit = {**checked, 3: CaseResult("RE", "judge limit: ...", judge_error=True)}
    assert _mean_fidelity(spec, cases, limit, False, wa)["fidelity_source"] == "judge error"
    assert _mean_fidelity(spec, cases, limit, False, wa)["mean_fidelity"] is None
    assert _mean_fidelity(get_spec("QPC004_C1"), cases, {}, False, wa) == {}


# ------------------------------------------------------------------ whole verdicts (sandbox)

H = "from qiskit import QuantumCircuit\n\n"
GHZ = get_spec("QPC002_A3").reference
SLIGHT = GHZ.replace("    return qc\n", "    qc.ry(0.1, 0)\n    return qc\n")
PHASED = GHZ.replace("    return qc\n", "    qc.global_phase += 0.5\n    return qc\n")
HALF = GHZ.replace("    qc = QuantumCircuit(n)\n",
                   "    if n > 8:\n        raise ValueError('too big')\n    qc = QuantumCircuit(n)\n")
UGE_LATE = GHZ.replace("    return qc\n", "    if n > 8:\n        qc.measure_all()\n    return qc\n")

CASES = [  # (name, problem, completion)
    ("ac", "QPC002_A3", GHZ),
    ("slight", "QPC002_A3", SLIGHT),
    ("phased", "QPC002_A3", PHASED),
    ("half", "QPC002_A3", HALF),
    ("uge_late", "QPC002_A3", UGE_LATE),
    ("format", "QPC002_A3", "   "),
    ("ume", "QPC002_A3", "import os\n" + GHZ),
    ("phase_counts", "QPC002_B1", H + "def solve(theta):\n    qc = QuantumCircuit(1)\n"
     "    qc.p(theta, 0)\n    return qc\n"),
    ("classical", "QPC004_C1", get_spec("QPC004_C1").reference),
]


@pytest.fixture(scope="module")
def judged(qsandbox, qcoder_records, judge_many):
    judge = QCoderJudge(secret="fidelity-test")
    verdicts = judge_many(qsandbox, judge, [(qcoder_records[p], c) for _, p, c in CASES])
    return judge, dict(zip([c[0] for c in CASES], verdicts, strict=True))


def _per_case(judge, rec, fn):
    return [fn(c["args"]) for c in judge.cases(rec)]


upstream = pytest.mark.upstream


@upstream
def test_mean_over_all_tests(judged, qcoder_records):
    judge, v = judged
    rec = qcoder_records["QPC002_A3"]
    spec = get_spec("QPC002_A3")
    assert v["ac"].status == "AC" and v["ac"].details["mean_fidelity"] == 1.0
    assert v["ac"].details["fidelity_source"] == "simulated"
    assert v["phased"].status == "AC" and v["phased"].details["mean_fidelity"] == 1.0

    def slight(args):
        qc = _solve(spec, args)
        qc.ry(0.1, 0)
        return state_fidelity(Statevector(qc), Statevector(spec.target(args)))

    want = float(np.mean(_per_case(judge, rec, slight)))
    d = v["slight"].details
    assert v["slight"].status == "WA" and 0.99 < want < 1
    assert d["mean_fidelity"] == pytest.approx(want, abs=1e-12)
    assert d["fidelity_source"] == "simulated" and d["fidelity_simulated"] == len(judge.cases(rec))
    # the verdict's first failing test keeps the checker's own number
    assert d["fidelity"] == pytest.approx(math.cos(0.05) ** 2, abs=1e-9)


@upstream
def test_failed_tests_count_zero(judged, qcoder_records):
    judge, v = judged
    cases = judge.cases(qcoder_records["QPC002_A3"])
    small = sum(c["args"]["n"] <= 8 for c in cases)
    for name, status in (("half", "RE"), ("uge_late", "UGE")):
        d = v[name].details
        assert v[name].status == status
        assert d["fidelity_source"] == "partly simulated" and d["fidelity_simulated"] == small
        assert d["mean_fidelity"] == pytest.approx(small / len(cases), abs=1e-12)
    for name, status in (("format", "FORMAT"), ("ume", "UME")):
        assert v[name].status == status
        assert v[name].details["mean_fidelity"] == 0.0
        assert v[name].details["fidelity_source"] == "not simulated"


@upstream
def test_counted_phase_and_classical(judged, qcoder_records):
    judge, v = judged
    d = v["phase_counts"].details
    thetas = [c["args"]["theta"] for c in judge.cases(qcoder_records["QPC002_B1"])]
    assert v["phase_counts"].status == "WA" and d["fidelity_source"] == "simulated"
    assert d["mean_fidelity"] == pytest.approx(
        float(np.mean([max(0.0, math.cos(t)) ** 2 for t in thetas])), abs=1e-12)
    assert v["classical"].status == "AC"
    assert v["classical"].details["mean_fidelity"] is None
    assert v["classical"].details["fidelity_source"] == "no target"


@upstream
def test_first_failure_mode_says_not_computed(qsandbox, qcoder_records, judge_many):
    judge = QCoderJudge(secret="fidelity-test", first_failure=True)
    (v,) = judge_many(qsandbox, judge, [(qcoder_records["QPC002_A3"], SLIGHT)])
    assert v.status == "WA" and v.details["mean_fidelity"] is None
    assert v.details["fidelity_source"] == "first failure"


# ------------------------------------------------------------------ report and qce compare

def _rows(slight: bool) -> list[dict]:
    ghz = SLIGHT if slight else GHZ
    b1 = get_spec("QPC002_B1")
    return [{"id": "QPC002_A3", "completion": f"```python\n{ghz}\n```"},
            {"id": "QPC002_B1", "completion": f"```python\n{b1.reference}\n```"},
            {"id": "QPC004_C1", "completion": f"```python\n{get_spec('QPC004_C1').reference}\n```"}]


@upstream
def test_report_and_compare_carry_fidelity(qcoder_data, qsandbox, tmp_path, capsys):
    import json

    from quantum_codegen_eval import evaluate
    from quantum_codegen_eval.cli import main

    for name, slight in (("exact", False), ("slight", True)):
        report = evaluate(_rows(slight), "qcoder", "problems", data_dir=qcoder_data, k=(1,),
                          sandbox=qsandbox, judge_options={"secret": "fidelity-test"})
        report.save(tmp_path / name)
        fid = {r["problem_id"]: r.get("fidelity") for r in report.per_sample}
        assert fid["QPC002_B1"] == 1.0 and fid["QPC004_C1"] is None
        assert (fid["QPC002_A3"] == 1.0) if not slight else 0.99 < fid["QPC002_A3"] < 1
        entry = report.summary["fidelity"]["all"]
        assert entry["problems"] == 2 and entry["ci"][0] <= entry["fidelity"] <= entry["ci"][1]
        assert "## Mean fidelity (%)" in report.to_markdown()
    capsys.readouterr()
    code = main(["compare", str(tmp_path / "exact"), str(tmp_path / "slight"), "-k", "1",
                 "--n-boot", "200", "--out", str(tmp_path / "cmp")])
    out = capsys.readouterr().out
    assert code == 0 and "Mean fidelity (%)" in out and "Paired comparisons of mean fidelity" in out
    table = json.loads((tmp_path / "cmp" / "tables" / "paired_fidelity.json").read_text())
    (row,) = table["rows"]
    assert row[1] == 2 and row[5] == 1 and 0 < row[2]["value"] < 0.01  # one problem differs
