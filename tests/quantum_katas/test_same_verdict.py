"""The same program gets the same verdict on every run, in every worker, when the program or the
test draws unseeded shots: Aer's (``judges/jobs/simulator_seeds.py``: seeded from the run's seed
in the candidate's and the test's jobs) and Qiskit's ``StatevectorSampler`` (numpy's unseeded
``default_rng()``, which the sandbox derives from the run's seed). Each program is judged as four
copies in each of two sandboxes of two workers; without the seeds a one-shot coin flips the
verdict."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.benchmarks.quantum_katas import Task
from quantum_codegen_eval.execution import Sandbox
from quantum_codegen_eval.judges.base import judge_many
from quantum_codegen_eval.judges.quantum_katas import QuantumKatasJudge

PROMPT = "def coin() -> int:\n    pass\n"
# the candidate flips the coin: its one shot is the answer the test wants to be 1
AER_COIN = ("from qiskit import QuantumCircuit\nfrom qiskit_aer import AerSimulator\n\n\n"
            "def coin():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    qc.measure_all()\n"
            "    return int(next(iter(AerSimulator().run(qc, shots=1).result().get_counts())))\n")
SAMPLER_COIN = ("from qiskit import QuantumCircuit\nfrom qiskit.primitives import StatevectorSampler\n\n\n"
                "def coin():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    qc.measure_all()\n"
                "    res = StatevectorSampler().run([qc], shots=1).result()[0]\n"
                "    return int(next(iter(res.data.meas.get_counts())))\n")
COIN_TEST = "def test_coin():\n    assert coin() == 1\n"
# the test flips it: it samples the candidate's circuit once
CIRCUIT_PROMPT = "from qiskit import QuantumCircuit\n\n\ndef plus() -> QuantumCircuit:\n    pass\n"
PLUS = ("from qiskit import QuantumCircuit\n\n\ndef plus():\n    qc = QuantumCircuit(1)\n"
        "    qc.h(0)\n    return qc\n")
SAMPLED_TEST = ("from qiskit_aer import AerSimulator\n\n\ndef test_plus():\n    qc = plus()\n"
                "    qc.measure_all()\n"
                "    assert AerSimulator().run(qc, shots=1).result().get_counts() == {'1': 1}\n")

CASES = {
    "aer in the program": (Task("X/1", PROMPT, AER_COIN, COIN_TEST, "coin", "X"), AER_COIN),
    "sampler in the program": (Task("X/2", PROMPT, SAMPLER_COIN, COIN_TEST, "coin", "X"),
                               SAMPLER_COIN),
    "aer in the test": (Task("X/3", CIRCUIT_PROMPT, PLUS, SAMPLED_TEST, "plus", "X"), PLUS),
}


@pytest.fixture(scope="module")
def statuses() -> dict[str, list[str]]:
    """Each case's four copies, judged in each of two sandboxes of two workers (all cases in
    the same two sandboxes: a run is a sandbox, its start included)."""
    items = [(task, program + f"# copy {i}\n") for task, program in CASES.values()
             for i in range(4)]
    seen: dict[str, list[str]] = {case: [] for case in CASES}
    for _ in range(2):
        with Sandbox(workers=2) as sb:
            verdicts = judge_many(QuantumKatasJudge(time_limit=20.0), items, sb)
        for i, v in enumerate(verdicts):
            seen[list(CASES)[i // 4]].append(v.status)
    return seen


@pytest.mark.parametrize("case", CASES)
def test_one_verdict_in_every_worker_and_run(case, statuses):
    got = statuses[case]
    assert len(got) == 8 and len(set(got)) == 1 and got[0] in ("AC", "WA"), got


@pytest.mark.parametrize("case", ["aer in the program", "aer in the test"])
def test_the_judges_seed_moves_the_draw(case, sandbox):
    """The shots come from the judge's seed (recorded in its signature), not a constant."""
    task, program = CASES[case]
    seen = set()
    for seed in range(12):  # until both sides of the coin came up
        seen.add(judge_many(QuantumKatasJudge(time_limit=20.0, seed=seed), [(task, program)],
                            sandbox)[0].status)
        if seen == {"AC", "WA"}:
            break
    assert seen == {"AC", "WA"}
    assert QuantumKatasJudge(seed=3).signature()["hash_seed"] == 3
