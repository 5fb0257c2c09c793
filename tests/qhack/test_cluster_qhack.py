"""QHack on a real 2-worker LocalCluster through ``evaluate(scheduler=...)``: the workers pass
the era-environment pre-flight, the verdicts are the local pool's, copies are judged once."""

from __future__ import annotations

from pathlib import Path

import pytest

from quantum_codegen_eval import evaluate

distributed = pytest.importorskip("distributed")

SOLUTIONS = Path(__file__).parent / "solutions"


@pytest.mark.slow
def test_qhack_on_a_local_cluster_matches_the_local_pool(qhack_data, sandbox, tmp_path):
    good_2023 = (SOLUTIONS / "2023" / "tutorial_1.py").read_text()
    good_2024 = (SOLUTIONS / "2024" / "GHZ_inn.py").read_text()
    preds = {
        "2023/tutorial_1": [good_2023, f"Here:\n```python\n{good_2023}```\n",
                            (SOLUTIONS / "2023" / "tutorial_1.wrong.py").read_text()],
        "2024/GHZ_inn": [good_2024, (SOLUTIONS / "2024" / "GHZ_inn.wrong.py").read_text()],
    }
    local = evaluate(preds, "qhack", "all", data_dir=qhack_data, k=(1,), sandbox=sandbox)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = evaluate(preds, "qhack", "all", data_dir=qhack_data, k=(1,),
                          scheduler=cluster.scheduler_address, store=tmp_path / "r.jsonl")
    statuses = {r["key"]: r["status"] for r in local.per_sample}
    assert {r["key"]: r["status"] for r in remote.per_sample} == statuses
    assert statuses == {"2023/tutorial_1#0": "AC", "2023/tutorial_1#1": "AC",
                        "2023/tutorial_1#2": "WA", "2024/GHZ_inn#0": "AC",
                        "2024/GHZ_inn#1": "WA"}
    assert remote.summary["programs"]["distinct"] == 4
