"""Timing: a synthetic QHack sweep shaped like the PennySynth one, judged end to end.

    QCE_GITHUB_URL=file://$PWD/../shared/upstream/github \\
    .venv/bin/python timing/sweep.py [--systems 6] [--samples 5] [--skip-slow] \\
        [--limit N] [--mode local|cluster|both] [--workers 2] [--seed 0] [--json FILE]

6 systems x 74 QHack challenges x 5 samples by default (``--systems``, ``--samples``,
``--limit`` and ``--only`` make it smaller). The answers are built from the programs of
``tests/qhack/solutions`` (known-good, ``.wrong.py``, ``weak/`` wrong programs that pass a weak
check) plus broken ones made here (a program cut off after a third and two thirds of its lines:
truncated model output); a challenge without any program there gets the challenge's own
unfilled template (wrong) and its truncations. Repetition, as LLM samples repeat: each system
knows a challenge with its own probability (the known-good program is then its usual answer,
else a wrong program, or with probability 0.3 a broken one, is); each sample is that usual
answer with probability ``--repeat`` (default 0.6), else a draw from the challenge's pool (a
kind uniformly, then a program of it); all systems draw from
the same pool, so systems give identical answers; the code is wrapped in varying prose, or
given plain, which the extraction rule removes.

``--skip-slow`` leaves out the challenges whose official check takes minutes per program
(2023 office_hijinks_200/300/400/500, fall_of_sqynet_500). ``--mode both`` judges the same
predictions on the local pool and on a ``dask.distributed`` LocalCluster (2 worker processes,
1 thread each) and checks that the verdicts agree.

``--predictions DIR`` only writes the predictions, one file per system
(``DIR/system-<s>.jsonl``, rows ``{id, completion}``), for walking a paper's path by hand
(``qce evaluate`` per system, then ``qce compare``; docs/writing-the-paper.md).

Printed: samples, distinct programs, programs that ran jobs, wall time, the jobs' CPU time (each
result's rusage), all sandbox processes' CPU time (reaped children: jobs, pre-imported workers,
and on the cluster the worker processes; only what was reaped), the evaluator's own CPU time, CPU seconds per distinct program, and for the
challenges whose official loop cost is known (``reference_cpu_s`` x public tests in the QHack
manifest, or ``--official FILE``: JSON ``{challenge id: CPU seconds per program}``) the ratio of
the judge's CPU time for their known-good programs to the official loops' own.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

SOLUTIONS = Path(__file__).resolve().parents[1] / "tests" / "qhack" / "solutions"
#: official checks that take minutes per program (the issue's measurements, HEAVY.txt; a naive
#: VQE for fall_of_sqynet_500, the template's 5,000 epochs for qml_100)
SLOW = ("2023/office_hijinks_200", "2023/office_hijinks_300", "2023/office_hijinks_400",
        "2023/office_hijinks_500", "2023/fall_of_sqynet_500",
        "2022/qml_100_GeneratingFourierState_template")
#: how often each system's usual answer to a challenge is the known-good program
SKILL = (0.8, 0.65, 0.5, 0.4, 0.3, 0.2, 0.15, 0.1)
PROSE = ("", "Here is the solution:\n\n", "The completed template:\n", "Sure! ",
         "This fills in the functions.\n\n")


@dataclass
class Pool:
    """The programs one challenge's answers are drawn from, by kind."""

    good: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)

    def kinds(self) -> dict[str, list[str]]:
        return {k: v for k, v in (("good", self.good), ("wrong", self.wrong),
                                  ("broken", self.broken)) if v}

    def draw(self, rng: random.Random, kinds: tuple[str, ...] = ("good", "wrong", "broken"),
             ) -> tuple[str, str]:
        """A kind (uniformly among those this pool has), then one of its programs."""
        have = self.kinds()
        kind = rng.choice([k for k in kinds if k in have] or list(have))
        return kind, rng.choice(have[kind])


def _truncations(program: str) -> list[str]:
    lines = program.splitlines(keepends=True)
    return ["".join(lines[: len(lines) * k // 3]) for k in (1, 2) if len(lines) >= 6]


def pools(records: dict) -> dict[str, Pool]:
    out = {}
    for cid, rec in sorted(records.items()):
        year, name = cid.split("/", 1)
        pool = Pool()
        for path in (SOLUTIONS / year / f"{name}.py", SOLUTIONS / "era" / year / f"{name}.py"):
            if path.is_file():
                pool.good.append(path.read_text())
        for path in (SOLUTIONS / year / f"{name}.wrong.py", SOLUTIONS / "weak" / year / f"{name}.py"):
            if path.is_file():
                pool.wrong.append(path.read_text())
        if not pool.good and not pool.wrong:
            pool.wrong.append(rec.template)  # the unfilled template (read, never stored)
        base = (pool.good or pool.wrong)[0]
        pool.broken = _truncations(base)
        out[cid] = pool
    return out


def predictions(pools_: dict[str, Pool], systems: int, samples: int, repeat: float,
                seed: int) -> tuple[list[dict], dict[str, tuple[str, str]]]:
    """Rows ``{id, sample, completion}`` (one list for all systems: sample = system * samples +
    j) and key -> (kind, program)."""
    rng = random.Random(seed)
    rows, kinds = [], {}
    for cid, pool in pools_.items():
        for s in range(systems):
            if pool.good and rng.random() < SKILL[s % len(SKILL)]:
                usual = ("good", pool.good[0])
            else:  # a wrong answer more often than a broken one
                usual = pool.draw(rng, ("wrong",) if rng.random() < 0.7 else ("broken",))
            for j in range(samples):
                kind, program = usual if rng.random() < repeat else pool.draw(rng)
                prose = rng.choice(PROSE)
                completion = (program if prose == "" and rng.random() < 0.5
                              else f"{prose}```python\n{program}```\n")
                index = s * samples + j
                rows.append({"id": cid, "sample": index, "completion": completion})
                kinds[f"{cid}#{index}"] = (kind, program)
    return rows, kinds


def _cpu_recorder():
    """A real Sandbox that also keeps each result's CPU time by sample key."""
    from quantum_codegen_eval.execution import Sandbox

    class Recording(Sandbox):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.cpu: dict[str, float] = {}
            self._cpu_lock = threading.Lock()

        def submit(self, job):
            future = super().submit(job)
            key = job.id.split("::")[0]

            def note(f):
                if f.exception() is None:
                    with self._cpu_lock:
                        self.cpu[key] = self.cpu.get(key, 0.0) + f.result().cpu_time

            future.add_done_callback(note)
            return future

    return Recording


def run(mode: str, rows: list[dict], data_dir: str, workers: int) -> dict:
    from quantum_codegen_eval import evaluate

    Recording = _cpu_recorder()
    cluster = client = None
    before, t0 = os.times(), time.perf_counter()
    if mode == "cluster":
        import distributed

        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        client = distributed.Client(cluster)
        sandbox = Recording(executor=client.get_executor(), workers=4)
    else:
        sandbox = Recording(workers=workers)
    try:
        report = evaluate(rows, "qhack", "all", data_dir=data_dir, k=(1, 5), sandbox=sandbox,
                          metrics=("pass@k", "errors"))
    finally:
        sandbox.close()
        if client is not None:
            client.close()
            cluster.close()
    wall = time.perf_counter() - t0
    after = os.times()
    return {"mode": mode, "report": report, "wall": wall, "job_cpu": sum(sandbox.cpu.values()),
            "cpu_by_sample": dict(sandbox.cpu),
            "children_cpu": (after.children_user + after.children_system
                             - before.children_user - before.children_system),
            "evaluator_cpu": after.user + after.system - before.user - before.system}


def official_costs(path: str | None) -> dict[str, float]:
    """Challenge id -> the official loop's CPU seconds for a known-good program, where known.
    ``path``: ``{id: seconds}``, or the rows ``timing/qhack_official.py --json`` writes (the
    official loop's CPU after the template's imports, which the judge's pre-imported workers
    skip too)."""
    if path:
        data = json.loads(Path(path).read_text())
        if isinstance(data, list):
            return {str(r["id"]): float(r["official_net_cpu"]) for r in data
                    if r["official_net_cpu"] is not None}
        return {str(k): float(v) for k, v in data.items()}
    from quantum_codegen_eval.loaders.qhack import manifest

    return {p["id"]: p["reference_cpu_s"] * max(1, p.get("public_tests") or 1)
            for p in manifest()["problems"] if p.get("reference_cpu_s")}


def summarise(result: dict, kinds: dict, official: dict[str, float]) -> dict:
    report = result["report"]
    programs = report.summary["programs"]
    judged = set(result["cpu_by_sample"])
    good_cpu = good_official = 0.0
    known: dict[str, list[float]] = {}  # challenge -> [judge CPU, official CPU] of its good ones
    for key in judged:
        cid = key.split("#")[0]
        if kinds.get(key, ("",))[0] == "good" and cid in official:
            good_cpu += result["cpu_by_sample"][key]
            good_official += official[cid]
            pair = known.setdefault(cid, [0.0, 0.0])
            pair[0] += result["cpu_by_sample"][key]
            pair[1] += official[cid]
    return {"mode": result["mode"], "samples": programs["samples"],
            "distinct": programs["distinct"], "judged": len(judged),
            "wall_s": round(result["wall"], 1), "job_cpu_s": round(result["job_cpu"], 1),
            "evaluator_cpu_s": round(result["evaluator_cpu"], 1),
            "sandbox_cpu_s": round(result["children_cpu"], 1),
            "cpu_s_per_program": round(result["job_cpu"] / max(1, len(judged)), 2),
            "median_cpu_s_per_program": round(statistics.median(
                result["cpu_by_sample"].values()), 2) if judged else None,
            "good_programs_vs_official": round(good_cpu / good_official, 2) if good_official
            else None,
            "official_known_challenges": len(known),
            "good_vs_official_by_challenge": {cid: [round(j, 3), round(o, 3)]
                                              for cid, (j, o) in sorted(known.items())},
            "statuses": report.summary["statuses"],
            "pass@1": round(report.summary["pass@k"]["all"]["pass@1"], 4)}


def write_predictions(rows: list[dict], samples: int, out: Path) -> None:
    """One JSONL file per system (rows of system ``s`` have samples ``s*samples ..``)."""
    out.mkdir(parents=True, exist_ok=True)
    files: dict[int, list[str]] = {}
    for row in rows:
        line = json.dumps({"id": row["id"], "completion": row["completion"]})
        files.setdefault(row["sample"] // samples, []).append(line)
    for system, lines in sorted(files.items()):
        (out / f"system-{system}.jsonl").write_text("\n".join(lines) + "\n")
    print(f"wrote {len(rows)} predictions of {len(files)} systems to {out}/system-*.jsonl")


def main(argv: list[str] | None = None) -> int:
    from quantum_codegen_eval.benchmarks import qhack
    from quantum_codegen_eval.loaders.qhack import build

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", help="local upstream copy (default: the download cache)")
    ap.add_argument("--systems", type=int, default=6)
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--repeat", type=float, default=0.6)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=int,
                    help="only N challenges, evenly spaced over the sorted ids (after --skip-slow)")
    ap.add_argument("--only", help="comma-separated challenge ids")
    ap.add_argument("--skip-slow", action="store_true", help=f"leave out {', '.join(SLOW)}")
    ap.add_argument("--mode", choices=("local", "cluster", "both"), default="both")
    ap.add_argument("--workers", type=int, default=2, help="local pool size")
    ap.add_argument("--official", help="JSON {challenge id: official loop CPU s per program}")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--predictions", metavar="DIR",
                    help="only write each system's predictions to DIR/system-<s>.jsonl")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        build(args.source, tmp)
        records = qhack.problems("all", data_dir=tmp)
        chosen = dict(records)
        if args.only:
            chosen = {c: records[c] for c in args.only.split(",")}
        if args.skip_slow:
            chosen = {c: r for c, r in chosen.items() if c not in SLOW}
        if args.limit and args.limit < len(chosen):
            ids = sorted(chosen)
            step = len(ids) / args.limit
            chosen = {ids[int(i * step)]: chosen[ids[int(i * step)]] for i in range(args.limit)}
        rows, kinds = predictions(pools(chosen), args.systems, args.samples, args.repeat,
                                  args.seed)
        if args.predictions:
            write_predictions(rows, args.samples, Path(args.predictions))
            return 0
        judge = qhack.make_judge(env="era")
        for rec in chosen.values():  # era environments exist before the clock starts
            judge.interpreter(rec)
        official = official_costs(args.official)
        modes = ("local", "cluster") if args.mode == "both" else (args.mode,)
        results = [run(m, rows, tmp, args.workers) for m in modes]
    figures = [summarise(r, kinds, official) for r in results]
    print(f"{len(chosen)} challenges x {args.systems} systems x {args.samples} samples; "
          f"slow checks {'excluded' if args.skip_slow else 'included'}: "
          f"{', '.join(c for c in SLOW if c in chosen) or 'none chosen'}; "
          f"load average {os.getloadavg()[0]:.1f}")
    cols = ["mode", "samples", "distinct", "judged", "wall_s", "job_cpu_s", "sandbox_cpu_s",
            "evaluator_cpu_s",
            "cpu_s_per_program", "median_cpu_s_per_program", "good_programs_vs_official",
            "official_known_challenges", "pass@1"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for f in figures:
        print("| " + " | ".join(str(f[c]) for c in cols) + " |")
    print(f"challenges: {', '.join(chosen)}")
    for f in figures:
        print(f"{f['mode']} statuses: {f['statuses']}")
    status = 0
    if len(results) == 2:
        a, b = ({r["key"]: r["status"] for r in res["report"].per_sample} for res in results)
        differ = sorted(k for k in a if a[k] != b.get(k))
        print(f"local vs cluster: {len(a) - len(differ)} of {len(a)} verdicts agree"
              + (f"; differ: {differ[:10]}" if differ else ""))
        status = 1 if differ else 0
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "figures": figures}, indent=2))
    return status


if __name__ == "__main__":
    sys.exit(main())
