"""One extraction rule: the QCoder judge runs exactly the code the metrics score
(``BENCHMARK.extract`` = ``codeblocks.extract_last_block``), whatever the fences look like."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.benchmarks.qcoder import BENCHMARK
from quantum_codegen_eval.execution import Job
from quantum_codegen_eval.judges.base import code_of
from quantum_codegen_eval.judges.qcoder import QCoderJudge

pytestmark = pytest.mark.upstream

GOOD = "from qiskit import QuantumCircuit\n\n\ndef solve():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    return qc\n"
OTHER = GOOD.replace("qc.h(0)", "qc.x(0)")

COMPLETIONS = {
    "python3-tag": f"Here:\n```python3\n{GOOD}```\n",
    "tilde-fence": f"Here:\n~~~python\n{GOOD}~~~\nDone.",
    "tilde-untagged": f"~~~\n{GOOD}~~~\n",
    "unterminated": f"Sure.\n```python\n{GOOD}",
    "several-blocks": f"```python\n{OTHER}```\nthen, better:\n```python\n{GOOD}```\n",
    "long-fence": f"````python\n{GOOD}````\n",
    "indented-fence": f"  ```py\n{GOOD}  ```\n",
    "other-language-last": f"```python\n{GOOD}```\n```bash\npip install qiskit\n```\n",
    "plain-code": GOOD,
    "only-other-language": "```bash\npip install qiskit\n```\n",
    "empty": "",
}


def _judged_code(judge: QCoderJudge, rec, completion: str) -> str | None:
    planned = judge.jobs(rec, code_of(judge, completion))
    if not isinstance(planned, list):  # decided before running: FORMAT (no code)
        assert planned.status == "FORMAT", planned.message
        return None
    (job,) = planned
    assert isinstance(job, Job) and isinstance(job.peer, Job)
    return job.peer.files["candidate.py"]


@pytest.mark.parametrize("name", sorted(COMPLETIONS))
def test_judge_and_metrics_see_the_same_code(qcoder_records, name):
    rec = qcoder_records["QPC001_A1"]
    completion = COMPLETIONS[name]
    judged = _judged_code(BENCHMARK.make_judge(), rec, completion)
    scored = BENCHMARK.candidate_code(rec, completion)
    assert judged == (scored or None), name
    if name in ("only-other-language", "empty"):
        assert judged is None
    else:
        assert judged.strip() == GOOD.strip(), name
