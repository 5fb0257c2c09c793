"""Each distinct program judged once per run: copies share the verdict, each keeps its record."""

from __future__ import annotations

import json

import pytest

from quantum_codegen_eval import evaluate
from quantum_codegen_eval.benchmarks import sample
from quantum_codegen_eval.execution import Sandbox
from quantum_codegen_eval.judges.base import code_of, program_key

GOOD = ("def bell_circuit():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    qc.cx(0, 1)\n"
        "    return qc\n")
BAD = ("def bell_circuit():\n    qc = QuantumCircuit(2)\n    qc.x(0)\n    qc.cx(0, 1)\n"
       "    return qc\n")
BASIS = ("def basis_state(bits):\n    qc = QuantumCircuit(len(bits))\n    return qc\n")
BELL = "sample/qk_bell_circuit"


def fenced(code: str, prose: str = "") -> str:
    return f"{prose}```python\n{code}```\n"


class CountingSandbox(Sandbox):
    """The real sandbox, counting the jobs it was given (to see what was judged)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.submitted: list[str] = []

    def submit(self, job):
        self.submitted.append(job.id)
        return super().submit(job)


@pytest.fixture(scope="module")
def counting_sandbox():
    with CountingSandbox(workers=2) as sb:
        yield sb


@pytest.fixture
def sandbox(counting_sandbox):
    """The module's sandbox, its count of jobs emptied for each test."""
    counting_sandbox.submitted.clear()
    return counting_sandbox


def _judged(sb: CountingSandbox) -> set[str]:
    """The samples whose jobs ran (job ids are ``<sample key>::<n>``)."""
    return {job_id.split("::")[0] for job_id in sb.submitted}


def _rows():
    return [
        {"id": BELL, "sample": 0, "completion": fenced(GOOD, "Here it is:\n")},
        {"id": BELL, "sample": 1, "completion": fenced(GOOD, "The Bell pair:\n")},
        {"id": BELL, "sample": 2, "completion": GOOD},  # plain text: the same program
        {"id": BELL, "sample": 3, "completion": fenced(BAD)},
        {"id": BELL, "sample": 4, "completion": fenced(BAD)},
        # the same code for another problem is another program
        {"id": "sample/qk_basis_state", "sample": 0, "completion": fenced(BASIS)},
        {"id": "sample/qk_basis_state", "sample": 1, "completion": fenced(BASIS, "x\n")},
    ]


def test_copies_are_judged_once_and_each_counted(sandbox, tmp_path):
    store = tmp_path / "results.jsonl"
    report = evaluate(_rows(), "sample", "qiskit", k=(1,), sandbox=sandbox, store=store)
    status = {r["key"]: r["status"] for r in report.per_sample}
    assert status == {f"{BELL}#0": "AC", f"{BELL}#1": "AC", f"{BELL}#2": "AC", f"{BELL}#3": "WA",
                      f"{BELL}#4": "WA", "sample/qk_basis_state#0": "WA",
                      "sample/qk_basis_state#1": "WA"}
    assert _judged(sandbox) == {f"{BELL}#0", f"{BELL}#3", "sample/qk_basis_state#0"}
    assert report.summary["programs"] == {"samples": 7, "distinct": 3, "copies": 4,
                                          "copies_judged_once": True}
    bell = next(r for r in report.per_problem if r["problem_id"] == BELL)
    assert (bell["n"], bell["correct"]) == (5, 3)
    assert "Programs judged: 3 distinct of 7 samples" in report.to_markdown()
    records = {r["key"]: r for r in map(json.loads, store.read_text().splitlines())}
    assert len(records) == 7  # every sample has its own record
    assert records[f"{BELL}#2"]["same_program_as"] == f"{BELL}#0"
    assert records[f"{BELL}#4"]["same_program_as"] == f"{BELL}#3"
    assert "same_program_as" not in records[f"{BELL}#0"]
    assert records[f"{BELL}#1"]["program_key"] == records[f"{BELL}#0"]["program_key"]


def test_judge_copies_judges_every_copy(sandbox):
    report = evaluate(_rows(), "sample", "qiskit", k=(1,), sandbox=sandbox, judge_copies=True)
    assert _judged(sandbox) == {r["key"] for r in report.per_sample}
    assert report.summary["programs"]["distinct"] == 3
    assert report.summary["programs"]["copies_judged_once"] is False
    assert "(every copy judged)" in report.to_markdown()


def test_a_judge_not_declared_deterministic_judges_every_copy(sandbox):
    judge = sample.BENCHMARK.make_judge()
    judge.deterministic = False  # an instance attribute shadows the class's declaration
    report = evaluate(_rows()[:3], "sample", "qiskit", k=(1,), sandbox=sandbox, judge=judge)
    assert len(_judged(sandbox)) == 3
    assert report.summary["programs"] == {"samples": 3, "distinct": 3, "copies": 0,
                                          "copies_judged_once": True}


def test_the_key_is_what_the_judge_reads():
    """All fenced blocks are the program (the benchmark's rule): a different earlier block is a
    different program; prose around the blocks is not."""
    judge = sample.BENCHMARK.make_judge()
    rec = sample.problems("qiskit")[BELL]
    def key(completion):
        return program_key(judge, code_of(judge, completion), rec)

    one = key(fenced(GOOD))
    assert one == key("Answer:\n" + fenced(GOOD) + "\nDone.")
    assert one != key(fenced("import math\n") + fenced(GOOD))
    assert one != key(fenced(GOOD.replace("qc.h(0)", "qc.h(0) ")))


def test_resume_reuses_a_stored_verdict_of_the_same_program(sandbox, tmp_path):
    """A run killed after the first copy was stored: the resumed run gives the stored verdict
    to the other copies (new completions, the same program) without judging them."""
    store = tmp_path / "results.jsonl"
    first = [_rows()[0], _rows()[3]]
    evaluate(first, "sample", "qiskit", k=(1,), sandbox=sandbox, store=store)
    judged_before = len(sandbox.submitted)
    report = evaluate(_rows()[:5], "sample", "qiskit", k=(1,), sandbox=sandbox, store=store,
                      resume=True)
    assert len(sandbox.submitted) == judged_before  # nothing judged again
    assert [r["status"] for r in report.per_sample] == ["AC", "AC", "AC", "WA", "WA"]
    records = [json.loads(line) for line in store.read_text().splitlines()]
    assert len(records) == 5
    assert {r["key"]: r.get("same_program_as") for r in records}[f"{BELL}#1"] == f"{BELL}#0"


def test_a_check_drawing_afresh_each_judging_judges_every_copy():
    """QHack's office_hijinks_300 check seeds its hidden draws anew each time: no sharing."""
    from quantum_codegen_eval.benchmarks import qhack

    judge = qhack.make_judge()
    code = "def f():\n    return 1\n"
    assert program_key(judge, code, {"id": "2023/office_hijinks_300"}) is None
    assert program_key(judge, code, {"id": "2023/office_hijinks_200"}) is not None
