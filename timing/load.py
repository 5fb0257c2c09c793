"""CPU time of the same work idle and with the machine oversubscribed, side by side.

A judge's limits are CPU seconds (docs/sandbox.md, "Limits under load"); this measures how much
the CPU time of identical jobs still grows when every core is shared with spinning processes
(caches and context switches), and how much the wall time grows (what the old wall-clock backstop
counted)::

    .venv/bin/python timing/load.py                    # 5 rounds, 8 spinners per core
    .venv/bin/python timing/load.py --rounds 7 --per-core 4 --json load.json

Rounds alternate idle / loaded so that drifts of a shared machine fall on both; medians per job
kind. The jobs: a pure-Python loop, NumPy linear algebra, a small PennyLane QNode loop (the shape
of a QHack check: thousands of tiny circuits) and a Qiskit Aer simulation.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from quantum_codegen_eval.execution import Job, Limits, Sandbox

PRELOAD = ("numpy", "pennylane", "qiskit", "qiskit_aer")

JOBS = {
    "python loop": "x = 0\nfor i in range(8_000_000):\n    x += i * i % 7\n",
    "numpy linalg": ("import numpy as np\nrng = np.random.default_rng(0)\n"
                     "for _ in range(40):\n    a = rng.normal(size=(200, 200))\n"
                     "    np.linalg.eigh(a + a.T)\n"),
    "pennylane qnodes": ("import pennylane as qml\nfrom pennylane import numpy as np\n"
                         "dev = qml.device('default.qubit', wires=3)\n\n"
                         "@qml.qnode(dev)\ndef f(a):\n    qml.RX(a, wires=0)\n"
                         "    qml.CNOT(wires=[0, 1])\n    qml.RY(a / 2, wires=2)\n"
                         "    return qml.probs(wires=range(3))\n\n"
                         "for i in range(600):\n    f(i * 0.01)\n"),
    "qiskit aer": ("from qiskit import QuantumCircuit, transpile\n"
                   "from qiskit_aer import AerSimulator\nsim = AerSimulator()\n"
                   "for n in range(40):\n    qc = QuantumCircuit(12)\n    qc.h(range(12))\n"
                   "    for q in range(11):\n        qc.cx(q, q + 1)\n        qc.rz(0.1 * n, q)\n"
                   "    qc.save_statevector()\n    sim.run(transpile(qc, sim)).result()\n"),
}


def spinners(per_core: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
            for _ in range(per_core * (os.cpu_count() or 1))]


def one_round(sb: Sandbox) -> dict[str, tuple[float, float]]:
    out = {}
    for name, source in JOBS.items():
        r = sb.run_job(Job(source, id=name, limits=Limits(wall_time=600, cpu_time=300)))
        if r.status != "ok":
            raise SystemExit(f"{name}: {r.status}\n{r.stderr[-2000:]}")
        out[name] = (r.cpu_time, r.wall_time)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--per-core", type=int, default=8)
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args()
    samples: dict[str, dict[str, list[tuple[float, float]]]] = {"idle": {}, "loaded": {}}
    with Sandbox(workers=1, preload=PRELOAD, memory_mb=4096) as sb:
        one_round(sb)  # warm-up: first-use costs of the frameworks
        for _ in range(args.rounds):
            for mode in ("idle", "loaded"):
                procs = spinners(args.per_core) if mode == "loaded" else []
                try:
                    time.sleep(0.5 if procs else 0)
                    for name, pair in one_round(sb).items():
                        samples[mode].setdefault(name, []).append(pair)
                finally:
                    for p in procs:
                        p.kill()
                        p.wait()
    rows = {}
    print(f"{'job':18} {'CPU idle':>9} {'CPU loaded':>11} {'CPU ratio':>9} {'wall ratio':>10}")
    for name in JOBS:
        ci = statistics.median(c for c, _ in samples["idle"][name])
        cl = statistics.median(c for c, _ in samples["loaded"][name])
        wi = statistics.median(w for _, w in samples["idle"][name])
        wl = statistics.median(w for _, w in samples["loaded"][name])
        rows[name] = {"cpu_idle": ci, "cpu_loaded": cl, "cpu_ratio": cl / ci,
                      "wall_idle": wi, "wall_loaded": wl, "wall_ratio": wl / wi}
        print(f"{name:18} {ci:9.3f} {cl:11.3f} {cl / ci:9.2f} {wl / wi:10.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rounds": args.rounds, "per_core": args.per_core, "jobs": rows}, f,
                      indent=2)


if __name__ == "__main__":
    main()
