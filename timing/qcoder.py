"""Bench: judge the 67 QCoder reference solutions over their full parameter sweeps.

    .venv/bin/python timing/qcoder.py [--source PATH] [--workers 2] [--wrong]

Without ``--source`` the upstream repository comes through the package's download cache
(``$QCE_GITHUB_URL``, e.g. ``file://$PWD/../shared/upstream/github``).

Prints problems/second, the program's and the check's time (one session per problem: the
trusted check linked to the program's job), CPU time of the judge process and of the sandbox jobs, and the slowest problems. Target: the whole
suite in under 60 s. ``--wrong`` also judges every wrong solution (all must be non-AC).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import FIRST_COMPLETED, wait


def main(argv: list[str] | None = None) -> int:
    from quantum_codegen_eval.benchmarks.qcoder import problems
    from quantum_codegen_eval.execution import Sandbox
    from quantum_codegen_eval.judges.qcoder import QCoderJudge
    from quantum_codegen_eval.judges.qcoder.specs import all_specs
    from quantum_codegen_eval.loaders.qcoder import build

    ap = argparse.ArgumentParser()
    ap.add_argument("--source", help="local upstream copy (default: download at the pinned commit)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--wrong", action="store_true")
    ap.add_argument("--only", nargs="*", default=None)
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        build(args.source, tmp)
        recs = problems(data_dir=tmp)
    specs = all_specs()
    ids = [i for i in specs if not args.only or any(i.startswith(o) for o in args.only)]
    judge = QCoderJudge(timeout=120)
    items = [(i, "ref", specs[i].reference) for i in ids]
    if args.wrong:
        items += [(i, "wrong", w) for i in ids for w in specs[i].wrong]
    t0 = time.perf_counter()
    plans = [judge.jobs(recs[i], code) for i, _, code in items]
    t_check = 0.0
    sandbox_cpu = 0.0
    verdicts = {}
    with Sandbox(workers=args.workers) as sb:
        # every stage of every item goes through one pool; each result is decided as it
        # arrives (QCoder: one stage, the trusted check linked to the program's job)
        results: dict[int, list] = {}
        pending = {}
        for n, plan in enumerate(plans):
            if isinstance(plan, list):
                results[n] = []
                pending[sb.submit(plan[0])] = n
        while pending:
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for fut in done:
                n = pending.pop(fut)
                r = fut.result()
                sandbox_cpu += r.cpu_time + (r.peer.cpu_time if r.peer is not None else 0.0)
                results[n].append(r)
                pid, _kind, code = items[n]
                t = time.perf_counter()
                step = judge.decide(recs[pid], code, results[n])
                t_check += time.perf_counter() - t
                if isinstance(step, list):
                    pending[sb.submit(step[0])] = n
                else:
                    # one session: the check (its wall clock spans it) and the program, its peer
                    session = results[n][0]
                    run = session.peer.wall_time if session.peer is not None else 0.0
                    verdicts[n] = (step, run, max(0.0, session.wall_time - run))
    rows, bad = [], []
    for n, ((pid, kind, _code), plan) in enumerate(zip(items, plans, strict=True)):
        v, run, dt = verdicts.get(n, (plan, 0.0, 0.0))
        rows.append((pid, kind, v.status, v.tests_total, run, dt))
        if (v.status == "AC") != (kind == "ref"):
            bad.append(f"{pid} {kind}: {v.status} {v.message[:200]}")
    total = time.perf_counter() - t0
    n_tests = sum(r[3] for r in rows if r[1] == "ref")
    cpu = time.process_time()
    print(f"judged {len(rows)} solutions of {len(ids)} problems ({n_tests} reference test cases) "
          f"in {total:.1f} s: {len(rows) / total:.2f} solutions/s")
    print(f"  sandbox ({args.workers} workers) runs the programs and the trusted checks; "
          f"decide() in the judge process {t_check:.1f} s wall; CPU: judge process {cpu:.1f} s, "
          f"sandbox jobs {sandbox_cpu:.1f} s")
    print("  slowest (program run + check):")
    for pid, kind, status, n, run, chk in sorted(rows, key=lambda r: -(r[4] + r[5]))[:8]:
        print(f"    {pid:<11} {kind:<5} {status:<3} {n:>3} tests  run {run:5.2f} s  check {chk:5.2f} s")
    for b in bad:
        print("  UNEXPECTED:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
