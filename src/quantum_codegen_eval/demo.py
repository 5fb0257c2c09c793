"""``qce demo``: the bundled sample, judged and scored offline.

>>> reports = run_demo("qce-demo-report")  # doctest: +SKIP
"""

from __future__ import annotations

import sys
from pathlib import Path

from .report import Report


def run_demo(out: str | Path = "qce-demo-report", *, workers: int | None = None,
             progress: bool = False) -> list[Report]:
    """Evaluate the sample predictions per framework; write one report folder per framework
    (``progress``: say on stderr what it is doing)."""
    from .benchmarks import sample
    from .evaluate import evaluate
    from .execution import Sandbox

    out = Path(out)
    reports = []
    with Sandbox(workers=workers) as sandbox:
        for config in ("pennylane", "qiskit"):
            ids = set(sample.problems(config))
            rows = [r for r in _read(sample.predictions_path())
                    if r.get("id") in ids or (config == "qiskit" and r.get("id") not in
                                              set(sample.problems("all")))]
            if progress:
                print(f"qce demo: the {config} half: {len(rows)} predictions on {len(ids)} tasks",
                      file=sys.stderr, flush=True)
            report = evaluate(rows, "sample", config, k=(1, 2), sandbox=sandbox,
                              progress=progress)
            report.save(out / config)
            reports.append(report)
    return reports


def _read(path: str) -> list[dict]:
    import json

    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
