"""Measure: what one worst-case completion costs the evaluator (issue 36).

    .venv/bin/python timing/completion_bounds.py [--bench qhack ...] [--kind nested ...]
        [--data-root DIR] [--json OUT]

For each judged benchmark (QHack, QCoder, Qiskit HumanEval, Quantum Katas), completions of each
kind are built just under and just over the benchmark's size cap (:func:`caps`) and each is
evaluated in a fresh process (``quantum_codegen_eval.evaluate``, real sandbox jobs), which
reports:

* ``parent_mb``: the evaluator process's peak RSS (``VmHWM``, judging and scoring; not
  ``ru_maxrss``, which a process started from a large one inherits: tests/support/peak_rss.py);
* ``trusted_mb``: the largest peak RSS of a *trusted* sandbox job (the judge's own code on the
  program's data; the sandbox reports every job's ``peak_memory_mb``); the untrusted jobs'
  (``untrusted_mb``) are shown too but are the candidate's, bounded by their own limit;
* ``judge_s``: wall seconds of judging; ``score_cpu_s``: CPU seconds of each metric
  (CodeBLEU, ROUGE-L, the hallucination check for PennyLane code), by ``scoring.score``.

Kinds: ``flat_sum`` (one flat sum filling the size), ``nested`` (lines of brackets nested 3,000
deep, one stray character), ``unary`` (lines of 20,000 unary minus signs), ``string`` (one string
literal), ``many_funcs`` (tiny functions), ``huge_print`` (a right solution padded to the size
that also prints 100 MB), ``huge_return`` (a solution whose value, a string or a circuit, is just
under and just over what the judge carries to its trusted stage: ``HUGE_N``). Every completion
defines the problem's required function. Upstream data comes through the package's download cache from
``$QCE_GITHUB_URL`` (``file://$PWD/../shared/upstream/github`` offline), never copied.
``tests/core/test_completion_bounds.py`` (slow tier) runs the same cases and asserts the bounds.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from quantum_codegen_eval.judges.jobs.wire import LIMITS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from peak_rss import run_fresh  # noqa: E402

#: the benchmarks, the problem each case judges and its config
PROBLEMS = {
    "qhack": ("2023/tutorial_1", "all"),
    "qcoder": ("QPC001_A1", None),
    "qiskit_humaneval": ("qiskitHumanEval/0", None),
    "quantum_katas": ("BasicGates/1.1", None),
}
KINDS = ("flat_sum", "nested", "unary", "string", "many_funcs", "huge_print", "huge_return")
#: the evaluator's bounds (issue 36)
MAX_RSS_MB = 500
MAX_SCORE_CPU_S = 5.0

SOLUTIONS = {
    "qhack": "def add_numbers(x, y):\n    return x + y\n",
    "qcoder": ("from qiskit import QuantumCircuit\n\n\ndef solve():\n    qc = QuantumCircuit(1)\n"
               "    qc.h(0)\n    return qc\n"),
    "qiskit_humaneval": ("from qiskit import QuantumCircuit\n\n\ndef create_quantum_circuit("
                         "n_qubits):\n    return QuantumCircuit(n_qubits)\n"),
    "quantum_katas": ("from qiskit import QuantumCircuit\n\n\ndef state_flip(qc, q):\n"
                      "    qc.x(q)\n    return qc\n"),
}
#: a right solution that also prints 100 MB (padded to the size like the other kinds)
PRINT = {bench: code.replace("):\n", "):\n    print('x' * 100_000_000)\n", 1)
         for bench, code in SOLUTIONS.items()}
#: a solution returning (or building) a value of ``n`` items: ``HUGE_N`` gives an ``n`` just
#: under and one just over the transport's bound (QHack: the codec's 2 M characters a string;
#: QCoder: the 200 000 instructions its trusted check reads; the function tests: 190 000
#: instructions carried, and one over the codec's ``wire.Limits.instructions`` refused by the
#: sender; the Katas test calls the function three times with a circuit it mutates, which
#: shares the QPY bytes a check reads in all)
RETURN = {
    "qhack": "def add_numbers(x, y):\n    return 'a' * {n}\n",
    "qcoder": ("from qiskit import QuantumCircuit\n\n\ndef solve():\n    qc = QuantumCircuit(1)\n"
               "    for _ in range({n}):\n        qc.z(0)\n    qc.h(0)\n    return qc\n"),
    "qiskit_humaneval": ("from qiskit import QuantumCircuit\n\n\ndef create_quantum_circuit("
                         "n_qubits):\n    qc = QuantumCircuit(n_qubits)\n"
                         "    for _ in range({n}):\n        qc.id(0)\n    return qc\n"),
    "quantum_katas": ("from qiskit import QuantumCircuit\n\n\ndef state_flip(qc, q):\n"
                      "    for _ in range({n}):\n        qc.z(q)\n    qc.x(q)\n    return qc\n"),
}
HUGE_N = {"qhack": (1_990_000, 2_100_000), "qcoder": (190_000, 210_000),
          "qiskit_humaneval": (190_000, LIMITS.instructions + 10_000),
          "quantum_katas": (40_000, LIMITS.instructions + 10_000)}


def caps() -> dict[str, int]:
    """Each benchmark's size cap on the code (characters; QHack: bytes, all ASCII here)."""
    from quantum_codegen_eval.formats.python_source import MAX_SOURCE_BYTES
    from quantum_codegen_eval.judges.function_test import _judge as function_test
    from quantum_codegen_eval.judges.qcoder import judge as qcoder

    return {"qhack": MAX_SOURCE_BYTES, "qcoder": qcoder.MAX_CODE_CHARS,
            "qiskit_humaneval": function_test.MAX_CODE_CHARS,
            "quantum_katas": function_test.MAX_CODE_CHARS}


def _fill(unit, size: int) -> str:
    """Lines ``unit(i)`` up to ``size`` characters, the rest a comment line."""
    out, n, i = [], 0, 0
    while True:
        line = unit(i)
        if n + len(line) > size:
            return "".join(out) + ("#" + "x" * (size - n - 2) + "\n" if size - n >= 2 else "")
        out.append(line)
        n += len(line)
        i += 1


def padding(kind: str, size: int) -> str:
    """``size`` characters (or a few fewer) of top-level code of ``kind``."""
    if kind == "flat_sum":
        return "_PAD = 0" + " + 1" * ((size - 9) // 4) + " " * ((size - 9) % 4) + "\n"
    if kind == "nested":
        depth = 3000
        stray = "_S = " + "[" * depth + ")" + "]" * (depth - 1) + "\n"
        return stray + _fill(lambda i: f"_N{i} = " + "[" * depth + "]" * depth + "\n",
                             size - len(stray))
    if kind == "unary":
        return _fill(lambda i: f"_U{i} = " + "-" * 20_000 + "1\n", size)
    if kind == "string":
        return "_S = '" + "a" * (size - 8) + "'\n"
    if kind == "many_funcs":
        return _fill(lambda i: f"def _f{i}():\n    return {i}\n", size)
    if kind == "huge_print":
        return "_S = '" + "a" * (size - 8) + "'\n"
    raise ValueError(kind)


def completion(bench: str, kind: str, size: int) -> str:
    """A fenced completion whose code has ``size`` characters (``huge_return``: whose value
    has ``size`` items)."""
    if kind == "huge_return":
        return "```python\n" + RETURN[bench].format(n=size) + "```\n"
    solution = PRINT[bench] if kind == "huge_print" else SOLUTIONS[bench]
    code = solution + "\n" + padding(kind, size - len(solution) - 1)
    return "```python\n" + code + "```\n"


def cases(benches=None, kinds=None, margin: int = 2000) -> list[tuple[str, str, int]]:
    """(bench, kind, code size or items): each kind just under and just over each cap."""
    cap = caps()
    return [(b, k, size) for b in (benches or PROBLEMS) for k in (kinds or KINDS)
            for size in (HUGE_N[b] if k == "huge_return" else (cap[b] - margin, cap[b] + margin))]


def measure(bench: str, kind: str, size: int, data_dir: str) -> dict:
    """In this process: evaluate one completion, then time each metric on it."""

    from quantum_codegen_eval import evaluate
    from quantum_codegen_eval.benchmarks.base import get
    from quantum_codegen_eval.evaluate import read_samples
    from quantum_codegen_eval.execution import Sandbox
    from quantum_codegen_eval.scoring import score

    jobs: list[tuple[bool, float, str]] = []

    def note(job, result):
        jobs.append((job.trusted, result.peak_memory_mb, result.status))
        if job.peer is not None and result.peer is not None:  # a linked program's job
            note(job.peer, result.peer)

    class Recording(Sandbox):  # the real sandbox; it only notes each job's peak RSS
        def submit(self, job):
            future = super().submit(job)
            future.add_done_callback(lambda f, job=job: note(job, f.result()))
            return future

    pid, config = PROBLEMS[bench]
    text = completion(bench, kind, size)
    rows = [{"id": pid, "completion": text}]
    t0 = time.monotonic()
    with Recording(workers=2) as sb:
        report = evaluate(rows, bench, config, data_dir=data_dir, sandbox=sb, metrics=())
    judge_s = time.monotonic() - t0
    (sample,) = report.per_sample
    bench_ = get(bench)
    problems = bench_.loader.problems(config, data_dir=data_dir)
    samples, _ = read_samples(rows)
    metric_s = {}
    scored = {}
    for metric in ("codebleu", "rouge_l", "hallucination"):
        if metric == "hallucination" and bench_.language(config) != "pennylane":
            continue
        c0 = time.process_time()
        out = score(bench_, config, samples, problems, [metric])
        metric_s[metric] = round(time.process_time() - c0, 2)
        scored.update(out.per_sample[samples[0].key])
    trusted = [mb for t, mb, _ in jobs if t]
    untrusted = [mb for t, mb, _ in jobs if not t]
    return {"bench": bench, "kind": kind, "code_size": size, "completion_chars": len(text),
            "status": sample["status"],
            # QHack names a FORMAT verdict's reason in details["format"]
            "reason": (sample["verdict"].get("details") or {}).get("format"),
            "judge_limitation": sample.get("judge_limitation"),
            "judge_error": bool(sample.get("judge_error")),
            "message": (sample.get("message") or "")[:160],
            "trusted_mb": max(trusted, default=0.0), "untrusted_mb": max(untrusted, default=0.0),
            "jobs": [(t, mb, st) for t, mb, st in jobs], "judge_s": round(judge_s, 2),
            "score_cpu_s": metric_s, "score_total_cpu_s": round(sum(metric_s.values()), 2),
            "metrics_truncated": bool(scored.get("metrics_truncated"))}


def run_case(bench: str, kind: str, size: int, data_dir: str, timeout: float = 900) -> dict:
    """``measure`` in a fresh interpreter, with its peak RSS (``parent_mb``: this case's alone)."""
    peak = run_fresh(measure, bench, kind, size, data_dir, timeout=timeout)
    return {**peak.result, "parent_mb": peak.peak_mb}


def build(root: Path, benches) -> dict[str, str]:
    from quantum_codegen_eval.benchmarks.base import get
    from quantum_codegen_eval.datasets_cache import build_dataset

    dirs = {}
    for b in benches:
        d = root / b
        if not d.is_dir():
            build_dataset(get(b), d, progress=False)
        dirs[b] = str(d)
    return dirs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", nargs="*", choices=list(PROBLEMS))
    ap.add_argument("--kind", nargs="*", choices=KINDS)
    ap.add_argument("--data-root", help="folder of built datasets (default: a temporary one)")
    ap.add_argument("--json", help="write every row here")
    args = ap.parse_args(argv)
    os.environ.setdefault("QCE_GITHUB_URL", (Path(__file__).resolve().parents[2] / "shared"
                                             / "upstream" / "github").as_uri())
    benches = args.bench or list(PROBLEMS)
    with tempfile.TemporaryDirectory() as tmp:
        dirs = build(Path(args.data_root or tmp), benches)
        rows, over = [], 0
        print(f"{'bench':17} {'kind':12} {'size':>9} {'verdict':24} {'parent':>7} {'trusted':>7} "
              f"{'untrust':>7} {'judge s':>7} {'score s':>7}")
        for bench, kind, size in cases(benches, args.kind):
            r = run_case(bench, kind, size, dirs[bench])
            rows.append(r)
            bad = (r["parent_mb"] > MAX_RSS_MB or r["trusted_mb"] > MAX_RSS_MB
                   or r["score_total_cpu_s"] > MAX_SCORE_CPU_S)
            over += bad
            verdict = r["status"] + (f" {r['reason'] or r['judge_limitation'] or ''}")
            print(f"{bench:17} {kind:12} {size:>9} {verdict[:24]:24} {r['parent_mb']:>7.0f} "
                  f"{r['trusted_mb']:>7.0f} {r['untrusted_mb']:>7.0f} {r['judge_s']:>7.1f} "
                  f"{r['score_total_cpu_s']:>7.2f}{'  OVER' if bad else ''}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    print(f"{over} case(s) over the bounds ({MAX_RSS_MB} MB, {MAX_SCORE_CPU_S} CPU-s of scoring)")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
