"""Bench: CPU seconds per public test of the known-good QHack solutions, in their era environments.

    .venv/bin/python timing/qhack_time_limits.py [--repeat 3] [--only 2023/tutorial_5] [--write]

Judges every known-good solution under ``tests/qhack/solutions/`` (``<year>/<id>.py`` and
``era/<year>/<id>.py``; never ``.wrong.py`` or ``weak/``) ``--repeat`` times, and prints per
challenge the verdicts and the median over repeats of the largest per-test CPU time of the
program's own job (the interpreter and preloaded modules come from the zygote, so start-up is not
counted; the judge adds its start-up allowance). ``--write`` stores the medians in the shipped
manifest as ``reference_cpu_s`` (only for all-AC challenges), from which the builder derives
``time_limit`` (see ``loaders/qhack.py: time_limit``). Uses ``$QCE_GITHUB_URL`` for the build.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import platform
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOLUTIONS = REPO / "tests" / "qhack" / "solutions"


def known_good() -> dict[str, str]:
    out = {}
    for path in sorted(SOLUTIONS.glob("*/*.py")) + sorted(SOLUTIONS.glob("era/*/*.py")):
        if path.name.endswith(".wrong.py") or path.parent.parent.name == "weak":
            continue
        out[f"{path.parent.name}/{path.name.removesuffix('.py')}"] = path.read_text()
    return out


def run_once(judge, items, sandbox):
    """[(verdict, [cpu seconds per public test])] for ``[(record, code)]``."""
    planned = [judge.jobs(rec, code) for rec, code in items]
    flat = [j for p in planned if isinstance(p, list) for j in p]
    results = iter(sandbox.run_jobs(flat))
    out = []
    for (rec, code), jobs in zip(items, planned, strict=True):
        if not isinstance(jobs, list):
            out.append((jobs, []))
            continue
        res = [next(results) for _ in jobs]
        cpu = [r.cpu_time for r in res]
        verdict = judge.decide(rec, code, res)
        while isinstance(verdict, list):
            res = res + sandbox.run_jobs(verdict)
            verdict = judge.decide(rec, code, res)
        out.append((verdict, cpu))
    return out


def main(argv: list[str] | None = None) -> int:
    from quantum_codegen_eval.benchmarks import qhack
    from quantum_codegen_eval.execution import Sandbox
    from quantum_codegen_eval.loaders.qhack import build

    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--write", action="store_true", help="store the medians in the manifest")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        build(None, tmp, progress=False)
        recs = qhack.problems("all", data_dir=tmp)
    sols = {k: v for k, v in known_good().items()
            if not args.only or any(k.startswith(o) for o in args.only)}
    # measured under a generous limit: the limit being calibrated must not cut the measurement
    items = [(dataclasses.replace(recs[k], time_limit=max(600.0, recs[k].time_limit)), code)
             for k, code in sols.items()]
    judge = qhack.make_judge(env="era")
    runs = []
    with Sandbox(workers=1) as sb:
        for _ in range(args.repeat):
            runs.append(run_once(judge, items, sb))
    report = {}
    for i, (rec, _) in enumerate(items):
        statuses = [run[i][0].status for run in runs]
        peak = [max(run[i][1] or [0.0]) for run in runs]
        report[rec.id] = {"statuses": statuses, "cpu_max_per_test": [round(c, 3) for c in peak],
                          "median": round(statistics.median(peak), 3)}
    print(json.dumps(report, indent=1))
    if args.write:
        path = REPO / "src" / "quantum_codegen_eval" / "data" / "manifests" / "qhack.json"
        man = json.loads(path.read_text("utf-8"))
        source = (f"qce's known-good solution (tests/qhack/solutions), median of {args.repeat} "
                  f"runs in the era environment, {platform.machine()} sandbox")
        for p in man["problems"]:
            r = report.get(p["id"])
            if r and set(r["statuses"]) == {"AC"}:
                p["reference_cpu_s"] = max(r["median"], 0.01)
                p["reference_cpu_source"] = source
                p.update({k: p[k] for k in sorted(p)})
        man["problems"] = [{k: p[k] for k in sorted(p)} for p in man["problems"]]
        path.write_text(json.dumps(man, indent=1, ensure_ascii=False) + "\n", "utf-8")
        print(f"wrote {path}", file=sys.stderr)
    return 0 if all(set(r["statuses"]) == {"AC"} for r in report.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
