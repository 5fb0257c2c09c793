"""CodeBLEU throughput: ours (standard + quantum) against the published ``codebleu==0.7.0``.

Run: ``.venv/bin/python bench/metrics.py [--pairs 1000] [--k 5]``

Programs are 30-80-line functions of the installed PennyLane and Qiskit packages (plus QHack
functions from the QHack upstream repositories, fetched through the package's download cache
when ``$QCE_GITHUB_URL`` or the network serves them). Two corpora of ``--pairs``
pairs are timed:

* ``k-samples``: ``pairs / k`` references with ``k`` fresh predictions each (k samples per
  problem, as for pass@k): about one new string per pair;
* ``pool``: pairs drawn from the pool of programs (neighbours, mutations, random partners), so
  many strings occur in several pairs, as when several systems are scored on one benchmark.

The reference package runs in its own venv (created once, see ``_codebleu_refenv``), in ONE
subprocess per corpus; only its ``calc_codebleu`` call is timed, like ours. Both sides use
PYTHONHASHSEED=0 (the reference dataflow match depends on it), so the numbers must agree to
1e-6; the script exits non-zero if they do not. The ratio is computed on process CPU time
(the machine may be shared; wall-clock rates are printed beside it).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

if os.environ.get("PYTHONHASHSEED") != "0":  # same set iteration order as the reference run
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])

from quantum_codegen_eval.metrics import _codebleu_corpus as corpus  # noqa: E402
from quantum_codegen_eval.metrics._codebleu_refenv import run_reference  # noqa: E402
from quantum_codegen_eval.metrics.codebleu import codebleu  # noqa: E402

REF_KEYS = {
    "codebleu": "codebleu",
    "ngram_match": "ngram_match_score",
    "weighted_ngram_match": "weighted_ngram_match_score",
    "syntax_match": "syntax_match_score",
    "dataflow_match": "dataflow_match_score",
}


def programs() -> list[str]:
    progs = corpus.package_functions("pennylane", 30, 80, "templates")
    progs += corpus.package_functions("qiskit", 30, 80, "circuit/library")
    from quantum_codegen_eval import upstream

    try:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "qhack").mkdir()
            for repo in upstream.repositories("qhack").values():
                (Path(tmp) / "qhack" / repo.top).symlink_to(upstream.unpacked(repo))
            progs += corpus.qhack_programs(Path(tmp), 30, 80)
    except upstream.UpstreamError as exc:
        print(f"(no QHack programs: {exc})", file=sys.stderr)
    return progs


def _timed(fn):
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def run(name: str, refs: list[str], preds: list[str]) -> float:
    n = len(preds)
    ref = run_reference(refs, preds, per_sample=False)
    ours, wall_std, cpu_std = _timed(lambda: codebleu(refs, preds))
    _, wall_q, cpu_q = _timed(lambda: codebleu(refs, preds, variant="quantum", lang="pennylane"))
    diff = max(abs(ours[k] - ref["corpus"][v]) for k, v in REF_KEYS.items())
    ratio = ref["cpu_seconds"] / cpu_std
    print(f"[{name}] {n} pairs, {len(set(refs) | set(preds))} distinct strings")
    print("  pairs/s                  :      CPU     wall")
    print(f"  reference codebleu 0.7.0 : {n / ref['cpu_seconds']:8.1f} {n / ref['seconds']:8.1f}")
    print(f"  ours, standard           : {n / cpu_std:8.1f} {n / wall_std:8.1f}"
          f"   ratio {ratio:.2f}x CPU, {ref['seconds'] / wall_std:.2f}x wall")
    print(f"  ours, quantum            : {n / cpu_q:8.1f} {n / wall_q:8.1f}")
    print(f"  codebleu {ours['codebleu']:.6f}, max |ours - reference| over components {diff:.1e}")
    if diff > 1e-6:
        raise SystemExit(f"[{name}] numbers differ from the reference by {diff}")
    return ratio


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--k", type=int, default=5, help="predictions per reference (k-samples)")
    args = ap.parse_args()
    progs = programs()
    print(f"{len(progs)} programs of 30-80 lines")
    run("k-samples", *corpus.sampled_pairs(progs, args.pairs // args.k, args.k, seed=1))
    run("pool", *corpus.make_pairs(progs, args.pairs, seed=2))


if __name__ == "__main__":
    main()
