"""Bench: judge the QHack reference solutions (and their wrong variants) in one batch.

    .venv/bin/python timing/qhack.py [--source PATH] [--repeat 3] [--workers 2] [--heavy]

Without ``--source`` the upstream repositories come through the package's download cache
(``$QCE_GITHUB_URL``, e.g. ``file://$PWD/../shared/upstream/github``).

Runs with whichever ``quantum_codegen_eval`` the interpreter imports, so the same script times
two checkouts side by side (e.g. ``/work/main/.venv/bin/python timing/qhack.py``). Prints the
median wall time of a batch and the CPU time of all sandbox processes (the evaluator's reaped
children: the machine may be shared, CPU time is the figure to compare), and checks that every
solution gets AC and every wrong variant does not.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

SOLUTIONS = Path(__file__).resolve().parents[1] / "tests" / "qhack" / "solutions"


def main(argv: list[str] | None = None) -> int:
    from quantum_codegen_eval.benchmarks import qhack
    from quantum_codegen_eval.execution import Sandbox
    from quantum_codegen_eval.judges.base import judge_many
    from quantum_codegen_eval.loaders.qhack import build

    ap = argparse.ArgumentParser()
    ap.add_argument("--source", help="local upstream copy (default: download at the pinned commits)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--heavy", action="store_true",
                    help="also the challenges listed in tests/qhack/solutions/HEAVY.txt")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        build(args.source, tmp)
        recs = qhack.problems("all", data_dir=tmp)
    heavy = {line for line in (SOLUTIONS / "HEAVY.txt").read_text().splitlines()
             if line and not line.startswith("#")}
    items, want = [], []
    for path in sorted(SOLUTIONS.glob("*/*.py")):
        wrong = path.name.endswith(".wrong.py")
        cid = f"{path.parent.name}/{path.name.removesuffix('.wrong.py').removesuffix('.py')}"
        if cid in heavy and not args.heavy:
            continue
        items.append((recs[cid], path.read_text()))
        want.append((cid, not wrong))
    judge = qhack.make_judge(env="era")
    for rec, _ in items:  # era environments are created outside the timing
        judge.interpreter(rec)
    walls, cpus, bad = [], [], []
    for _ in range(args.repeat):
        before = os.times()
        t0 = time.perf_counter()
        with Sandbox(workers=args.workers) as sb:
            verdicts = judge_many(judge, items, sb)
        walls.append(time.perf_counter() - t0)
        after = os.times()
        cpus.append(after.children_user + after.children_system
                    - before.children_user - before.children_system)
        bad = [(cid, v.status) for (cid, ok), v in zip(want, verdicts, strict=True)
               if (v.status == "AC") != ok]
    print(f"{len(items)} programs ({sum(ok for _, ok in want)} solutions, "
          f"{sum(not ok for _, ok in want)} wrong variants), {args.repeat} batch(es), "
          f"{args.workers} workers")
    print(f"median wall {statistics.median(walls):.1f} s, median sandbox CPU "
          f"{statistics.median(cpus):.1f} s; load average {os.getloadavg()[0]:.1f}")
    if bad:
        print("unexpected verdicts:", bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
