"""``qce demo``: the bundled sample, judged and scored offline, in seconds.

>>> reports = run_demo("qce-demo-report")  # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path

from .report import Report


def run_demo(out: str | Path = "qce-demo-report", *, workers: int | None = None) -> list[Report]:
    """Evaluate the sample predictions per framework; write one report folder per framework."""
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
            report = evaluate(rows, "sample", config, k=(1, 2), sandbox=sandbox)
            report.save(out / config)
            reports.append(report)
    return reports


def _read(path: str) -> list[dict]:
    import json

    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
