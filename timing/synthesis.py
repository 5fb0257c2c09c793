"""Timing: the cost of verifying synthesised candidates, per 1,000 candidates.

    .venv/bin/python timing/synthesis.py [--n 120] [--workers 2] [--scheduler ADDRESS | --local-cluster]
        [--against pennysynth|qhack] [--json FILE]

The answers come from the tests' user-kind generator (``tests/support/pennysynth_user.py``:
recombined corpus programs, broken, hallucinated, truncated and copied ones, one of each of
its twelve kinds in every twelve requests), seeded from the tests' sample corpus plus the
held-out problems. They are generated first (``generated.jsonl``); then ``synthesize`` runs
again on the same folder and only verifies, and that run is timed: checks before the sandbox
(format, syntax, the installed PennyLane's API, near-duplicates, contamination) and the
sandbox runs of the survivors. Printed: candidates, how many ran in the sandbox, wall seconds,
this process's CPU seconds, reaped children's CPU seconds (the sandbox's jobs and workers),
and each per 1,000 candidates; the counts by reason.

``--against pennysynth`` (default) checks contamination with the tests' three held-out
problems; ``--against qhack`` with the QHack problems (the dataset from the cache, built on
first use; its problem index is built once per verification run). ``--local-cluster`` verifies
on a ``dask.distributed`` LocalCluster of ``--workers`` processes.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "support"))
DATA = REPO / "tests" / "pennysynth" / "data"


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=120, help="candidates (default 120)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scheduler", help="a dask scheduler address")
    ap.add_argument("--local-cluster", action="store_true", help="a dask LocalCluster")
    ap.add_argument("--against", default="pennysynth", choices=["pennysynth", "qhack"])
    ap.add_argument("--json", help="also write the result here")
    args = ap.parse_args(argv)

    import pennysynth_user

    from quantum_codegen_eval.benchmarks import pennysynth
    from quantum_codegen_eval.synthesis import Seed, corpus_seeds, synthesize

    problems = pennysynth.problems(data_dir=DATA / "rag_problems.jsonl")
    seeds = corpus_seeds(DATA / "sample.jsonl") + [
        Seed(f"problem:{p.id}", p.instruction, p.code, "qhack_archive") for p in problems.values()]
    against = {"pennysynth": problems} if args.against == "pennysynth" else ("qhack",)
    scheduler, cluster = args.scheduler, None
    if args.local_cluster:
        from distributed import LocalCluster

        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True)
        scheduler = cluster.scheduler_address
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "synth"

        def never(batch):  # the timed run only verifies: everything is generated already
            raise AssertionError("generate called in the timed run")

        kw = dict(out=out, n=args.n, corpus=DATA / "sample.jsonl", against=against,
                  workers=args.workers, progress=False)
        _generate(pennysynth_user.generate, seeds, args.n, out)
        cpu0, child0, t0 = time.process_time(), _cpu_children(), time.perf_counter()
        report = synthesize(never, seeds, **kw, scheduler=scheduler)
        wall = time.perf_counter() - t0
        cpu, child = time.process_time() - cpu0, _cpu_children() - child0
        ran = sum(1 for line in (out / "verified.jsonl").read_text().splitlines()
                  if json.loads(line)["reason"] in ("", "failed", "timeout"))
    if cluster is not None:
        cluster.close()
    per = 1000 / args.n
    result = {"candidates": args.n, "ran_in_sandbox": ran, "mode": "dask" if scheduler else "local",
              "workers": args.workers, "against": args.against, "wall_s": round(wall, 2),
              "cpu_s": round(cpu, 2), "children_cpu_s": round(child, 2),
              "per_1000": {"wall_s": round(wall * per, 1), "cpu_s": round(cpu * per, 1),
                           "children_cpu_s": round(child * per, 1)},
              "accepted": report["accepted"], "rejected": report["rejected"]}
    print(json.dumps(result, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0


def _generate(generate, seeds, n, out: Path) -> None:
    """The answers, stored as synthesize stores them (so the timed run only verifies)."""
    from quantum_codegen_eval.execution.store import ResultStore
    from quantum_codegen_eval.metrics.signature import package_version
    from quantum_codegen_eval.synthesis import requests

    asked = requests(seeds, n, pennylane_version=package_version("pennylane"))
    with ResultStore(out / "generated.jsonl") as store:
        for r, answer in zip(asked, generate(asked), strict=True):
            store.add({"id": r.id, "seeds": list(r.seeds), "prompt": r.prompt, "answer": answer})


if __name__ == "__main__":
    sys.exit(main())
