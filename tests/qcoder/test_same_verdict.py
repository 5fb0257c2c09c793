"""The same program gets the same verdict on every run, in every worker: a program whose circuit
follows a set's iteration order (hash order), or an unseeded draw of numpy's
``default_rng()`` (Aer and Qiskit's primitives are not among QCoder's modules), is judged
many times, in two sandboxes of two workers each; the judge's seed decides the hash seed and the
sandbox derives the draws from it (``judges.base.job_hash_seed``)."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.execution import Sandbox
from quantum_codegen_eval.judges.qcoder import QCoderJudge

pytestmark = pytest.mark.upstream

# QPC001_A1 asks for |+>: H when the set's first name is one of half the names, else X: AC or WA
# by hash order
HASH_ORDER = ("from qiskit import QuantumCircuit\n\n\n"
              "def solve():\n    qc = QuantumCircuit(1)\n"
              "    names = {'cx', 'h', 'rz', 'ry', 'swap', 'ccx', 'sx', 'u', 't', 'tdg', 's', 'z'}\n"
              "    if next(iter(names)) in ('cx', 'h', 'rz', 'ry', 'swap', 'ccx'):\n"
              "        qc.h(0)\n    else:\n        qc.x(0)\n    return qc\n")


# H when one unseeded draw says so, else X: AC or WA by the draw
DRAWS = {
    "default_rng": "import numpy as np\n\n\ndef one():\n"
                   "    return np.random.default_rng().random() < 0.5\n",
}


def _drawn(kind: str) -> str:
    return ("from qiskit import QuantumCircuit\n" + DRAWS[kind] + "\n\ndef solve():\n"
            "    qc = QuantumCircuit(1)\n    if one():\n        qc.h(0)\n    else:\n        qc.x(0)\n"
            "    return qc\n")


@pytest.mark.parametrize("program", [HASH_ORDER, *(pytest.param(_drawn(k), id=k) for k in DRAWS)])
def test_one_verdict_in_every_worker_and_run(qcoder_records, judge_many, program):
    rec = qcoder_records["QPC001_A1"]
    items = [(rec, program + f"# copy {i}\n") for i in range(4)]
    statuses = []
    for _ in range(2):
        with Sandbox(workers=2) as sb:
            statuses += [v.status for v in judge_many(sb, QCoderJudge(), items)]
    assert len(set(statuses)) == 1 and statuses[0] in ("AC", "WA"), statuses
    assert QCoderJudge(seed=5).signature()["hash_seed"] == 5
