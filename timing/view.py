"""How long ``qce view`` takes to write a large comparison, and how long its pages take to open.

A synthetic comparison: ``--systems`` runs x ``--problems`` problems x ``--samples`` samples per
problem (default 6 x 350 x 10, the size issue 33 asks for), written as report folders shaped like
``evaluate``'s (per-sample rows with completions of ~40 lines, verdicts with failing tests,
provenance); then ``build_site`` on all of them (with the paired comparison), then headless
Chromium opens ``index.html#problems`` and ``#summary`` from disk, ``--repeat`` times each::

    .venv/bin/python timing/view.py                      # 6 x 350 x 10
    .venv/bin/python timing/view.py --systems 2 --problems 20 --samples 3 --keep /tmp/site

Reported: the build's wall time, the site's size, and per page the median over repeats of
(a) the page's own time from navigation start to the table drawn (``performance.now()`` the page
records on ``main[data-rendered-ms]``) and (b) the whole browser process (start, open, render,
dump the DOM, exit). The numbers are the machine's: a shared machine gives wider spreads.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from quantum_codegen_eval.provenance import JudgeSignature, Provenance, RunFacts

STATUSES = ("AC", "WA", "RE", "TLE", "FORMAT")
CLASSES = {"WA": "reasoning", "RE": "runtime", "TLE": "timeout", "FORMAT": "formatting"}
GROUPS = ("2019", "2020", "2021", "2022", "2023")


def _code(rng: random.Random, pid: str, lines: int = 40) -> str:
    body = [f"    qc.{rng.choice(('h', 'x', 'cx', 'rz'))}({i % 5}{', 1' if i % 3 else ''})"
            for i in range(lines)]
    return (f"Here is my solution to {pid}.\n\n```python\nfrom qiskit import QuantumCircuit\n\n"
            f"def solve(n):\n    qc = QuantumCircuit(n)\n" + "\n".join(body)
            + "\n    return qc\n```\n")


def _row(rng: random.Random, pid: str, index: int, skill: float) -> dict:
    status = "AC" if rng.random() < skill else rng.choice(STATUSES[1:])
    tests = [{"name": f"case {t}", "passed": status == "AC" or t < 2,
              "status": "AC" if status == "AC" or t < 2 else status, "expected": [0.5, 0.5],
              "got": None if status == "AC" or t < 2 else [1.0, 0.0],
              "message": "" if status == "AC" or t < 2 else f"{status} on case {t}"} for t in range(4)]
    message = "" if status == "AC" else f"{status}: case 2 differs (fidelity 0.{rng.randint(1, 98):02d})"
    verdict = {"benchmark": "synthetic", "problem_id": pid, "status": status,
               "tests_passed": sum(t["passed"] for t in tests), "tests_total": 4, "tests": tests,
               "error_class": CLASSES.get(status), "message": message, "timings": {},
               "details": {"fidelity": round(rng.random(), 4)} if status == "WA" else {}}
    return {"key": f"{pid}#{index}", "problem_id": pid, "sample": index, "status": status,
            "error_class": CLASSES.get(status), "tests_passed": verdict["tests_passed"],
            "tests_total": 4, "partial_credit": verdict["tests_passed"] / 4, "message": message,
            "known_problem": True, "judge_error": False, "codebleu": round(rng.random(), 3),
            "rouge_l_f": round(rng.random(), 3), "verdict": verdict,
            "completion": _code(rng, pid)}


def synthetic_reports(root: Path, systems: int, problems: int, samples: int, seed: int = 0) -> list[Path]:
    """``systems`` report folders under ``root`` (named system-1, ...), one benchmark, one judge."""
    from quantum_codegen_eval.scoring import _pass_at_k_table

    rng = random.Random(seed)
    sig = JudgeSignature("synthetic", None, {"time_limit": 30}, (), ("0" * 40,), "", "0")
    pids = [f"P{i:04d}" for i in range(problems)]
    groups = {pid: GROUPS[i % len(GROUPS)] for i, pid in enumerate(pids)}
    out = []
    for s in range(systems):
        skill = 0.2 + 0.6 * s / max(1, systems - 1)
        rows = [_row(rng, pid, i, skill) for pid in pids for i in range(samples)]
        per_problem = []
        for pid in pids:
            mine = [r for r in rows if r["problem_id"] == pid]
            per_problem.append({
                "problem_id": pid, "group": groups[pid], "n": len(mine),
                "correct": sum(r["status"] == "AC" for r in mine),
                "partial_credit": sum(r["partial_credit"] for r in mine) / len(mine),
                "statuses": {st: c for st in STATUSES if (c := sum(r["status"] == st for r in mine))}})
        ks = tuple(k for k in (1, 5) if k <= samples)
        failed = [r for r in rows if r["status"] != "AC"]
        errors: dict[str, int] = {}
        for r in failed:
            errors[r["error_class"]] = errors.get(r["error_class"], 0) + 1
        summary = {"benchmark": "synthetic", "config": None, "group_by": "year",
                   "predictions": len(rows), "problems_with_predictions": problems,
                   "statuses": {st: sum(r["status"] == st for r in rows) for st in STATUSES},
                   "pass@k": _pass_at_k_table(per_problem, ks), "errors": errors,
                   "errors_total": len(failed), "seconds": 0.0}
        prov = Provenance(sig, RunFacts("2026-01-01T00:00:00+00:00", 0.0, 1, "synthetic", "3.11"))
        report = {"benchmark": "synthetic", "config": None, "summary": summary,
                  "per_problem": per_problem, "per_sample": rows, "signatures": {},
                  "provenance": prov.to_dict()}
        folder = root / f"system-{s + 1}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "report.json").write_text(json.dumps(report), encoding="utf-8")
        out.append(folder)
    return out


def open_page(browser: str, url: str) -> tuple[float | None, float, str]:
    """(the page's own render time in ms, the browser process's wall time in s, the DOM)."""
    profile = tempfile.mkdtemp(prefix="qce-view-timing-")
    try:
        started = time.perf_counter()
        dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                              "--disable-background-networking", "--disable-component-update",
                              "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
                              "--dump-dom", url], capture_output=True, text=True, timeout=300,
                             check=True).stdout
        wall = time.perf_counter() - started
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    m = re.search(r'data-rendered-ms="(\d+)"', dom)
    return (float(m.group(1)) if m else None), wall, dom


def main() -> int:
    from quantum_codegen_eval.view import build_site

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--systems", type=int, default=6)
    ap.add_argument("--problems", type=int, default=350)
    ap.add_argument("--samples", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--n-boot", type=int, default=10_000)
    ap.add_argument("--browser", default=shutil.which("chromium") or "chromium")
    ap.add_argument("--keep", help="write the reports and the site here and keep them")
    args = ap.parse_args()
    root = Path(args.keep or tempfile.mkdtemp(prefix="qce-view-"))
    try:
        runs = synthetic_reports(root / "runs", args.systems, args.problems, args.samples)
        started = time.perf_counter()
        index = build_site(runs, root / "site", n_boot=args.n_boot)
        build = time.perf_counter() - started
        files = list((root / "site").rglob("*"))
        size = sum(f.stat().st_size for f in files if f.is_file())
        print(f"{args.systems} systems x {args.problems} problems x {args.samples} samples: "
              f"build {build:.1f} s; site {size / 1e6:.1f} MB in {len(files)} files "
              f"(summary.js {(root / 'site/data/summary.js').stat().st_size / 1e6:.2f} MB)")
        for page in ("problems", "summary"):
            times = [open_page(args.browser, index.resolve().as_uri() + "#" + page)[:2]
                     for _ in range(args.repeat)]
            rendered = [t for t, _ in times if t is not None]
            print(f"#{page}: drawn {statistics.median(rendered):.0f} ms after navigation start "
                  f"(median of {len(rendered)}); browser start to exit "
                  f"{statistics.median(w for _, w in times):.2f} s")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
