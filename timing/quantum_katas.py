"""Quantum Katas: every canonical solution through upstream's protocol and through our judge,
side by side in one run, CPU and wall seconds, median over repeats.

(a) Upstream's protocol: for each task a fresh interpreter loads upstream's own
``benchmark/evaluator.py`` (from the pinned archive, through the package's download path) and
calls its ``evaluate_solution(canonical_solution, test, entry_point)``, which runs the solution
and the test in one child process (as upstream's runner does per task; its parent imports no
framework, so each task imports Qiskit afresh). (b) Our judge: ``judge_many`` on a fresh
``Sandbox`` (started inside the measurement: its worker's imports count). Both run ``--workers``
tasks at a time. CPU seconds are the whole process tree's (this process and every waited-for
descendant: ``getrusage``); wall seconds are the elapsed time of each side. Upstream's own
runner (``benchmark/runner.py``) judges a model's tasks one at a time (``--workers 1``)::

    QCE_GITHUB_URL=file://$PWD/../shared/upstream/github \\
        .venv/bin/python timing/quantum_katas.py --repeats 3 --markdown table.md
    .venv/bin/python timing/quantum_katas.py --workers 1 --repeats 3
    .venv/bin/python timing/quantum_katas.py --only BasicGates/1.1 QFT/1.1 --repeats 1
    .venv/bin/python timing/quantum_katas.py --every 10 --repeats 1   # 35 tasks
    .venv/bin/python timing/quantum_katas.py --also-without-huge-pages  # the workers' 2 MB pages

The script's top level imports the standard library only: its ``--upstream-one`` mode is the
per-task interpreter of (a) and must not import more than upstream does.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import resource
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

#: upstream's evaluate_solution timeout (seconds)
UPSTREAM_TIMEOUT = 30.0


def upstream_one(evaluator: str, task_file: str) -> None:
    """The per-task interpreter of upstream's protocol: one evaluate_solution, its result as
    JSON on stdout."""
    spec = importlib.util.spec_from_file_location("katas_upstream_evaluator", evaluator)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    task = json.loads(Path(task_file).read_text(encoding="utf-8"))
    res = module.evaluate_solution(task["code"], task["test"], task["entry_point"],
                                   timeout=UPSTREAM_TIMEOUT)
    print(json.dumps({"passed": res.passed, "error_type": res.error_type,
                      "error_message": (res.error_message or "")[:300]}))


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def evaluator_path(github_url: str | None = None) -> Path:
    """upstream's benchmark/evaluator.py in the pinned archive (downloaded when needed)."""
    from quantum_codegen_eval import upstream
    from quantum_codegen_eval.loaders.quantum_katas import REPOSITORIES

    return upstream.unpacked(REPOSITORIES["quantum_katas"], github_url, progress=False) / \
        "benchmark" / "evaluator.py"


def run_upstream(tasks: list, evaluator: Path, workers: int, scratch: Path) -> dict[str, dict]:
    """Upstream's protocol on every task's canonical solution: task_id -> its result."""
    def one(i_task):
        i, task = i_task
        path = scratch / f"task{i}.json"
        path.write_text(json.dumps({"code": task.canonical_solution, "test": task.test,
                                    "entry_point": task.entry_point}), encoding="utf-8")
        proc = subprocess.run([sys.executable, __file__, "--upstream-one", str(evaluator),
                               str(path)], capture_output=True, text=True,
                              timeout=UPSTREAM_TIMEOUT * 4)
        lines = proc.stdout.strip().splitlines()
        if proc.returncode != 0 or not lines:
            return task.task_id, {"passed": False, "error_type": "DriverFailed",
                                  "error_message": proc.stderr[-300:]}
        return task.task_id, json.loads(lines[-1])

    with ThreadPoolExecutor(workers) as pool:
        return dict(pool.map(one, enumerate(tasks)))


def run_judge(tasks: list, workers: int, huge_pages: bool = True) -> dict[str, str]:
    """Our judge on every task's canonical solution: task_id -> status."""
    from quantum_codegen_eval.benchmarks import quantum_katas
    from quantum_codegen_eval.execution import Sandbox
    from quantum_codegen_eval.judges.base import judge_many

    with Sandbox(workers=workers, huge_pages=huge_pages) as sb:
        verdicts = judge_many(quantum_katas.make_judge(),
                              [(t, t.canonical_solution) for t in tasks], sb)
    return {t.task_id: v.status for t, v in zip(tasks, verdicts, strict=True)}


def measure(fn, *args) -> tuple[object, float, float]:
    cpu, wall = _cpu(), time.perf_counter()
    out = fn(*args)
    return out, _cpu() - cpu, time.perf_counter() - wall


def render(rows: list[dict], n: int, workers: int) -> str:
    med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    plain = "judge_plain_cpu" in med  # also measured without huge pages
    lines = [f"{n} canonical solutions, {workers} at a time, median of {len(rows)} run(s):", "",
             "| | upstream's protocol | our judge | upstream / judge |"
             + (" our judge without huge pages | upstream / that |" if plain else ""),
             "|---|---|---|---|" + ("---|---|" if plain else "")]
    for what in ("cpu", "wall"):
        up, ours = med[f"upstream_{what}"], med[f"judge_{what}"]
        line = (f"| {what.upper() if what == 'cpu' else what} seconds | {up:.1f} | "
                f"{ours:.1f} | {up / ours:.2f}x |")
        if plain:
            other = med[f"judge_plain_{what}"]
            line += f" {other:.1f} | {up / other:.2f}x |"
        lines.append(line)
    return "\n".join(lines) + "\n"


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--upstream-one":
        upstream_one(sys.argv[2], sys.argv[3])
        return
    import tempfile

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", metavar="TASK_ID", help="these tasks only")
    ap.add_argument("--data-dir", help="a built quantum_katas folder (default: the cache)")
    ap.add_argument("--github-url", help="download base of the upstream archive")
    ap.add_argument("--every", type=int, default=1, metavar="N",
                    help="every N-th task only (a quick subset)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", help="write every run's figures and verdicts here")
    ap.add_argument("--markdown", help="write the table here")
    ap.add_argument("--also-without-huge-pages", action="store_true",
                    help="also run the judge with Sandbox(huge_pages=False), in each repeat")
    args = ap.parse_args()

    from quantum_codegen_eval.benchmarks import quantum_katas

    problems = quantum_katas.problems(data_dir=args.data_dir)
    tasks = [problems[i] for i in args.only] if args.only else list(problems.values())
    tasks = tasks[::args.every]
    evaluator = evaluator_path(args.github_url)
    rows, verdicts = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.repeats):
            up, up_cpu, up_wall = measure(run_upstream, tasks, evaluator, args.workers, Path(tmp))
            ours, j_cpu, j_wall = measure(run_judge, tasks, args.workers)
            row = {"upstream_cpu": up_cpu, "upstream_wall": up_wall, "judge_cpu": j_cpu,
                   "judge_wall": j_wall}
            if args.also_without_huge_pages:
                plain, p_cpu, p_wall = measure(run_judge, tasks, args.workers, False)
                if plain != ours:
                    raise SystemExit("the verdicts differ with and without huge pages")
                row.update(judge_plain_cpu=p_cpu, judge_plain_wall=p_wall)
            rows.append(row)
            print(json.dumps({"run": k, **{a: round(b, 2) for a, b in row.items()}}), flush=True)
            verdicts = {t.task_id: {"upstream": up[t.task_id], "judge": ours[t.task_id]}
                        for t in tasks}
    differ = {i: v for i, v in verdicts.items() if v["upstream"]["passed"] != (v["judge"] == "AC")}
    table = render(rows, len(tasks), args.workers)
    print(table)
    print(f"upstream passes {sum(v['upstream']['passed'] for v in verdicts.values())}, "
          f"the judge accepts {sum(v['judge'] == 'AC' for v in verdicts.values())}; "
          f"they differ on {len(differ)}: {json.dumps(differ, indent=1)}")
    if args.markdown:
        Path(args.markdown).write_text(table, encoding="utf-8")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "verdicts": verdicts}, indent=1),
                                   encoding="utf-8")


if __name__ == "__main__":
    main()
