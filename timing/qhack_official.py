"""Per QHack challenge: the contest's own test loop against our judge, in CPU seconds.

For every challenge with a known-good solution (tests/qhack/solutions), the same program runs
(a) pasted into the whole template and run by the contest's own driver / test loop in the era
interpreter, and (b) through our judge (every stage: the program's jobs and the trusted check),
one at a time on one worker. The ratio judge / official is what judging costs beyond the
contest's own loop, which is the floor a faithful judge can reach::

    QCE_GITHUB_URL=file://$PWD/../shared/upstream/github \\
        .venv/bin/python timing/qhack_official.py --markdown table.md
    .venv/bin/python timing/qhack_official.py --heavy       # also the multi-minute checks
    .venv/bin/python timing/qhack_official.py --only 2023/tutorial_5 2024/GHZ_inn
    .venv/bin/python timing/qhack_official.py --heavy --slow-replay  # without the fast replay

CPU seconds (user + system) are used because wall time on a shared machine measures the load.
The official loop starts a fresh interpreter and imports PennyLane (once per public test for the
2022 scripts); the judge forks from a worker that imported it once for all jobs. So the table
gives the official loop both as measured and after its imports: the CPU the program's process
spent from the line after the template's imports to its exit, measured inside it
(tests/support/cpu_after_imports.py; summed over the 2022 scripts' runs).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "tests" / "qhack" / "solutions"
sys.path.insert(0, str(ROOT / "tests" / "support"))

from qhack_official import official_loop  # noqa: E402

from quantum_codegen_eval.benchmarks import qhack  # noqa: E402
from quantum_codegen_eval.execution import Sandbox  # noqa: E402
from quantum_codegen_eval.judges.base import stage_limit  # noqa: E402


def heavy() -> set[str]:
    lines = (SOLUTIONS / "HEAVY.txt").read_text().splitlines()
    return {ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")}


def known_good() -> dict[str, Path]:
    """challenge id -> its known-good solution (era/ first, as the tests read them)."""
    out: dict[str, Path] = {}
    for folder in (SOLUTIONS, SOLUTIONS / "era"):
        for path in sorted(folder.glob("20*/*.py")):
            if path.name.count(".") == 1:  # x.wrong.py and the like are not known-good
                out[f"{path.parent.name}/{path.stem}"] = path
    return out


def judge_cpu(judge, record, code: str, sandbox: Sandbox) -> tuple[str, float]:
    """The verdict and the CPU seconds of every job of every stage."""
    planned = judge.jobs(record, code)
    results, cpu = [], 0.0
    for _ in range(stage_limit(judge)):
        if not isinstance(planned, list):
            return planned.status, cpu
        out = sandbox.run_jobs(planned)
        cpu += sum(r.cpu_time for r in out)
        results += out
        planned = judge.decide(record, code, results)
    return "judge error (stages)", cpu


#: below this many CPU seconds of the official loop's own work no ratio is given
SMALL = 0.01


def render(rows: list[dict]) -> str:
    """The Markdown table of ``rows`` (as ``--json`` writes them)."""
    lines = ["| challenge | official loop (CPU s) | after its imports | judge (CPU s) "
             "| judge / after imports | verdict |", "|---|---|---|---|---|---|"]
    for r in rows:
        ok = r["judge_status"] + ("" if r["official_ok"] else " (official loop rejected it)")
        own = r["official_net_cpu"]
        net = "–" if own is None else f"< {SMALL}" if own < SMALL else f"{own:.2f}"
        ratio = "–" if r["ratio"] is None else f"{r['ratio']:.2f}"
        lines.append(f"| {r['id']} | {r['official_cpu']:.2f} | {net} | {r['judge_cpu']:.2f} | "
                     f"{ratio} | {ok} |")
    tot_o = sum(r["official_cpu"] for r in rows)
    tot_n = sum(r["official_net_cpu"] or 0.0 for r in rows)
    tot_j = sum(r["judge_cpu"] for r in rows)
    lines.append(f"| **all {len(rows)}** | {tot_o:.1f} | {tot_n:.1f} | {tot_j:.1f} | "
                 f"{tot_j / tot_n if tot_n else float('nan'):.2f} | |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--heavy", action="store_true", help="include " + ", ".join(sorted(heavy())))
    ap.add_argument("--only", nargs="+", metavar="ID", help="these challenges only")
    ap.add_argument("--slow-replay", action="store_true",
                    help="judge with state_cache=False (the recorded replays' slow path)")
    ap.add_argument("--data-dir", help="a built QHack dataset folder (default: the cache)")
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--markdown", help="write the Markdown table here")
    ap.add_argument("--render", metavar="JSON", help="only print the table of a saved --json run")
    args = ap.parse_args()
    if args.render:
        print(render(json.loads(Path(args.render).read_text())))
        return
    problems = qhack.problems("all", data_dir=args.data_dir)
    chosen = known_good()
    if args.only:
        chosen = {k: v for k, v in chosen.items() if k in args.only}
    elif not args.heavy:
        chosen = {k: v for k, v in chosen.items() if k not in heavy()}
    judge = qhack.make_judge(env="era", state_cache=not args.slow_replay)
    rows = []
    with Sandbox(workers=1) as sb, tempfile.TemporaryDirectory() as tmp:
        for i, (cid, path) in enumerate(sorted(chosen.items())):
            record, code = problems[cid], path.read_text()
            run = official_loop(cid, record, code, Path(tmp) / str(i), timeout=3600, timed=True)
            status, cpu = judge_cpu(judge, record, code, sb)
            net = run.cpu_after_imports  # None: the loop failed before its end
            row = {"id": cid, "official_cpu": round(run.cpu, 3),
                   "official_net_cpu": None if net is None else round(net, 3),
                   "official_ok": run.failure is None, "judge_cpu": round(cpu, 3),
                   "judge_status": status,
                   "ratio": round(cpu / net, 2) if net is not None and net >= SMALL else None}
            rows.append(row)
            print(json.dumps(row), flush=True)
    table = render(rows)
    print(table)
    if args.markdown:
        Path(args.markdown).write_text(table)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
