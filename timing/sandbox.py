"""Sandbox throughput: (a) this sandbox, (b) a fresh interpreter per sample, (c) in-process exec.

The same small PennyLane and Qiskit programs for all three, in one run::

    .venv/bin/python timing/sandbox.py                 # 200 + 200 programs; (b) on a subset
    .venv/bin/python timing/sandbox.py --n 50 --fresh-n 10 --workers 2

(b) costs about a second or more per sample, so by default it runs on ``--fresh-n`` programs
(half of each kind) and its rate is reported per sample; ``--fresh-n 0`` runs it on all of them.
Per-sample overhead = CPU the sandbox spends per sample (its workers, their job children and
the evaluator) - CPU of the same sample exec'd in-process; the wall-clock version (mean sandbox
wall time - mean in-process time) is printed too but, on a shared machine, measures the load. Peak memory of the pool = the largest sum of PSS (proportional set size: shared pages
counted once) over the worker processes and their children, sampled every 50 ms. The fixed
cost of the sandbox itself (fork, limits, uid switch, cleanup, supervision) is measured on
``--empty`` empty programs: CPU per run over the workers, their children and the evaluator
(mean), and the median wall time and median CPU of the job's own process (which includes its
isolation set-up: fork, mount namespace, limits, uid switch).

Old and new code side by side: run this file with the other checkout's interpreter, e.g.
``cd /tmp && /work/main/.venv/bin/python /work/wt/sandbox/timing/sandbox.py --json old.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from quantum_codegen_eval.execution import Job, Sandbox

# What a judge of these programs names (the sandbox itself preloads nothing and sets no
# framework variables); passed explicitly so that old and new code run the same thing.
PRELOAD = ("numpy", "pennylane", "qiskit", "qiskit_aer")
ENV = {"QISKIT_IN_PARALLEL": "TRUE"}


def pennylane_program(rng: random.Random) -> str:
    wires = rng.randint(1, 3)
    gates = []
    for _ in range(rng.randint(2, 6)):
        w = rng.randrange(wires)
        kind = rng.choice(["RX", "RY", "RZ", "Hadamard", "CNOT"])
        if kind == "CNOT" and wires > 1:
            gates.append(f"    qml.CNOT(wires=[{w}, {(w + 1) % wires}])")
        elif kind == "Hadamard":
            gates.append(f"    qml.Hadamard(wires={w})")
        else:
            gates.append(f"    qml.{kind if kind != 'CNOT' else 'RX'}({rng.uniform(0, 3):.3f},"
                         f" wires={w})")
    return ("import pennylane as qml\n"
            f"dev = qml.device('default.qubit', wires={wires})\n"
            "@qml.qnode(dev)\n"
            "def circuit():\n" + "\n".join(gates) + "\n"
            "    return qml.expval(qml.PauliZ(0))\n"
            "print(round(float(circuit()), 6))\n")


def qiskit_program(rng: random.Random) -> str:
    n = rng.randint(1, 3)
    ops = []
    for _ in range(rng.randint(2, 6)):
        q = rng.randrange(n)
        kind = rng.choice(["h", "x", "rz", "ry", "cx"])
        if kind == "cx" and n > 1:
            ops.append(f"qc.cx({q}, {(q + 1) % n})")
        elif kind in ("rz", "ry"):
            ops.append(f"qc.{kind}({rng.uniform(0, 3):.3f}, {q})")
        else:
            ops.append(f"qc.{'h' if kind == 'cx' else kind}({q})")
    return ("from qiskit import QuantumCircuit, transpile\n"
            "from qiskit.quantum_info import Statevector\n"
            f"qc = QuantumCircuit({n})\n" + "\n".join(ops) + "\n"
            "qc = transpile(qc, basis_gates=['cx', 'rz', 'sx', 'x'], optimization_level=1)\n"
            "p = Statevector(qc).probabilities_dict(decimals=6)\n"
            "print({str(k): float(v) for k, v in sorted(p.items())})\n")


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _descendants(roots: set[int]) -> set[int]:
    parent: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = open(f"/proc/{name}/stat").read()
                parent[int(name)] = int(stat[stat.rfind(")") + 2:].split()[1])
            except (OSError, ValueError):
                continue
    out = set(roots)
    changed = True
    while changed:
        changed = False
        for pid, ppid in parent.items():
            if ppid in out and pid not in out:
                out.add(pid)
                changed = True
    return out


class PoolMemory:
    """Samples the summed PSS of the sandbox's workers and their children."""

    def __init__(self, sb: Sandbox):
        self.sb, self.peak_kb, self._stop, self.cpu = sb, 0, threading.Event(), 0.0
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        while not self._stop.wait(0.05):
            roots = {z.pid for s in self.sb._all_slots for z in s.zygotes.values()}
            total = sum(_pss_kb(p) for p in _descendants(roots)) + _pss_kb(os.getpid())
            self.peak_kb = max(self.peak_kb, total)
        self.cpu = time.thread_time()  # the sampler's own CPU, not the sandbox's

    def __enter__(self) -> PoolMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _cpu_with_children(pid: int) -> float:
    """utime + stime + cutime + cstime: a worker and the job children it has reaped."""
    stat = open(f"/proc/{pid}/stat").read()
    fields = stat[stat.rfind(")") + 2:].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _pool_cpu(sb: Sandbox) -> float:
    return sum(_cpu_with_children(z.pid) for s in sb._all_slots for z in s.zygotes.values())


def run_inprocess(programs: list[str]) -> tuple[float, list[float], list[str]]:
    import numpy  # noqa: F401  (imports paid once, as the zygote does)
    import pennylane  # noqa: F401
    import qiskit  # noqa: F401
    import qiskit_aer  # noqa: F401

    times, outs = [], []
    t0 = time.perf_counter()
    for src in programs:
        buf = io.StringIO()
        t = time.process_time()
        with contextlib.redirect_stdout(buf):
            exec(compile(src, "<prog>", "exec"), {"__name__": "__main__"})
        times.append(time.process_time() - t)
        outs.append(buf.getvalue())
    return time.perf_counter() - t0, times, outs


def run_fresh(programs: list[str], workers: int) -> tuple[float, list[str]]:
    env = {**os.environ, "QISKIT_IN_PARALLEL": "TRUE", "OMP_NUM_THREADS": "1",
           "OPENBLAS_NUM_THREADS": "1"}

    def one(src: str) -> str:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "prog.py")
            with open(path, "w") as f:
                f.write(src)
            return subprocess.run([sys.executable, path], capture_output=True, text=True,
                                  cwd=d, env=env, timeout=300).stdout

    t0 = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        outs = list(pool.map(one, programs))
    return time.perf_counter() - t0, outs


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="programs of each kind")
    ap.add_argument("--fresh-n", type=int, default=20, help="(b) subset size; 0 = all")
    ap.add_argument("--workers", type=int, default=None, help="default: cores")
    ap.add_argument("--empty", type=int, default=100, help="empty programs for the fixed cost")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="also write the numbers here")
    args = ap.parse_args(argv)
    workers = args.workers or os.cpu_count() or 1
    rng = random.Random(args.seed)
    programs = [pennylane_program(rng) for _ in range(args.n)]
    programs += [qiskit_program(rng) for _ in range(args.n)]
    total = len(programs)

    with Sandbox(workers=workers, wall_time=60, preload=PRELOAD) as sb:
        sb.run_jobs([Job("pass", id=f"warm{i}", env=ENV) for i in range(workers)])  # start
        jobs = [Job(src, id=str(i), env=ENV) for i, src in enumerate(programs)]
        cpu0, pool0 = os.times(), _pool_cpu(sb)
        with PoolMemory(sb) as mem:
            t0 = time.perf_counter()
            results = sb.run_jobs(jobs)
            sb_wall = time.perf_counter() - t0
        cpu1, pool1 = os.times(), _pool_cpu(sb)
        # the sandbox's own cost, without any framework work: an empty program
        e_cpu0, e_pool0, e_t0 = os.times(), _pool_cpu(sb), time.perf_counter()
        empty = sb.run_jobs([Job("pass", id=f"e{i}", env=ENV) for i in range(args.empty)])
        e_wall = time.perf_counter() - e_t0
        e_cpu1, e_pool1 = os.times(), _pool_cpu(sb)
        isolation = sb.isolation
    empty_cpu = ((e_pool1 - e_pool0) + (e_cpu1.user + e_cpu1.system - e_cpu0.user
                                        - e_cpu0.system)) / len(empty)
    bad = [r for r in results if r.status != "ok"]
    if bad:
        raise SystemExit(f"{len(bad)} sandbox runs failed, e.g. {bad[0]}")

    ip_wall, ip_times, ip_outs = run_inprocess(programs)
    if [r.stdout for r in results] != ip_outs:
        diff = next(i for i, r in enumerate(results) if r.stdout != ip_outs[i])
        raise SystemExit(f"sandbox and in-process outputs differ at program {diff}")

    half = min(args.n, (args.fresh_n or total) // 2 or 1)
    subset = list(range(half)) + list(range(args.n, args.n + half))
    fr_wall, fr_outs = run_fresh([programs[i] for i in subset], workers)
    if fr_outs != [ip_outs[i] for i in subset]:
        raise SystemExit("fresh-interpreter and in-process outputs differ")

    sb_rate = total / sb_wall
    fr_rate = len(subset) / fr_wall
    ip_rate = total / ip_wall
    mean_wall = sum(r.wall_time for r in results) / total
    mean_ip = sum(ip_times) / total  # CPU seconds: in-process exec is single-threaded
    evaluator_cpu = (cpu1.user + cpu1.system - cpu0.user - cpu0.system - mem.cpu) / total
    sandbox_cpu = (pool1 - pool0) / total + evaluator_cpu
    report = {
        "programs": {"pennylane": args.n, "qiskit": args.n}, "workers": workers,
        "cores": os.cpu_count(), "load_avg_1min": round(os.getloadavg()[0], 2),
        "sandbox_samples_per_s": round(sb_rate, 2),
        "fresh_interpreter_samples_per_s": round(fr_rate, 3),
        "fresh_interpreter_subset": len(subset),
        "inprocess_samples_per_s": round(ip_rate, 2),
        "ratio_sandbox_vs_fresh": round(sb_rate / fr_rate, 1),
        "per_sample_overhead_cpu_ms": round(1000 * (sandbox_cpu - mean_ip), 2),
        "per_sample_overhead_wall_ms": round(1000 * (mean_wall - mean_ip), 2),
        "sandbox_cpu_ms_per_sample": round(1000 * sandbox_cpu, 2),
        "empty_program_cpu_ms": round(1000 * empty_cpu, 2),
        "empty_program_mean_wall_ms": round(1000 * sum(r.wall_time for r in empty) / len(empty),
                                            2),
        "empty_program_median_wall_ms": round(1000 * statistics.median(
            r.wall_time for r in empty), 2),
        "empty_program_median_job_cpu_ms": round(1000 * statistics.median(
            r.cpu_time for r in empty), 2),
        "empty_programs_per_s": round(len(empty) / e_wall, 1),
        "sandbox_median_wall_ms": round(1000 * statistics.median(r.wall_time for r in results),
                                        2),
        "sandbox_mean_wall_ms": round(1000 * mean_wall, 2),
        "inprocess_cpu_ms_per_sample": round(1000 * mean_ip, 2),
        "evaluator_cpu_ms_per_sample": round(1000 * evaluator_cpu, 2),
        "pool_peak_pss_mb": round(mem.peak_kb / 1024, 1),
        "isolation": isolation,
    }
    for k, v in report.items():
        print(f"{k:34s} {v}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
    return report


if __name__ == "__main__":
    main()
