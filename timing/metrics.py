"""CodeBLEU: speed against the published ``codebleu==0.7.0``, the seed gap, the quantum keys.

Run: ``.venv/bin/python timing/metrics.py [speed|seed-gap|keys|hallucination] [--pairs 1000]``
(default: all four). Upstream material (QHack templates, Qiskit HumanEval) comes through the
package's download cache from ``$QCE_GITHUB_URL`` (``file://$PWD/../shared/upstream/github``
offline), never copied.

``speed``: programs are 30-80-line functions of the installed PennyLane package, of
``qiskit.circuit`` and of the QHack templates and notebooks. Three corpora are timed, each as ONE corpus call on both sides:

* ``distinct``: every reference and every prediction occurs once (a program against a mutated
  copy of another program), the hardest case for per-string caching;
* ``k-samples``: ``pairs / k`` references with ``k`` fresh predictions each (k samples per
  problem, as for pass@k);
* ``pool``: pairs drawn from the pool of programs, so strings repeat (several systems scored on
  one benchmark).

The reference runs in its own venv (``tests/support/_codebleu_refenv.py``) in ONE subprocess
per corpus, at PYTHONHASHSEED=0; only its ``calc_codebleu`` call is timed, like ours. The ratio
is process CPU time, median of ``--repeat`` runs of ours. n-gram, weighted and syntax components
must agree to 1e-6 and dataflow within the documented merge-order gap, else the script exits
non-zero.

``seed-gap``: per pair, ours against the reference at PYTHONHASHSEED=0 on the Qiskit HumanEval
canonical solutions (against their prompts and against each other) and the QHack templates;
how many pairs differ and by how much (docs/metrics/codebleu.md).

``keys``: what a gate swap and a circuit rename cost in ``variant="quantum"`` (HumanEval,
``lang="qiskit"``), a gate swap in snippets without ``import pennylane as qml`` (functions cut
out of the QHack templates), and Qiskit code scored with ``lang="pennylane"``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "support"))

import _codebleu_corpus as corpus  # noqa: E402
from _codebleu_refenv import run_reference  # noqa: E402

from quantum_codegen_eval.metrics.codebleu import codebleu  # noqa: E402

REF_KEYS = {
    "codebleu": "codebleu",
    "ngram_match": "ngram_match_score",
    "weighted_ngram_match": "weighted_ngram_match_score",
    "syntax_match": "syntax_match_score",
    "dataflow_match": "dataflow_match_score",
}


def upstream() -> Path | None:
    """The upstream repositories, unpacked through the package's download cache
    (``$QCE_GITHUB_URL``, e.g. ``file://$PWD/../shared/upstream/github``); None when unreachable."""
    from upstream_tree import tree

    from quantum_codegen_eval.upstream import UpstreamError

    try:
        return tree(Path(tempfile.mkdtemp(prefix="qce-bench-upstream-")))
    except UpstreamError as exc:
        print(f"(no upstream material: {exc})", file=sys.stderr)
        return None


def programs() -> list[str]:
    progs = corpus.package_functions("pennylane", 30, 80)
    progs += corpus.package_functions("qiskit", 30, 80, "circuit")
    up = upstream()
    if up is not None:
        progs += corpus.qhack_programs(up, 30, 80)
    return list(dict.fromkeys(progs))


def _cpu(fn):
    c0 = time.process_time()
    out = fn()
    return out, time.process_time() - c0


def speed(name: str, refs: list[str], preds: list[str], repeat: int) -> float:
    n = len(preds)
    ref = run_reference(refs, preds, per_sample=False)
    runs = [_cpu(lambda: codebleu(references=refs, predictions=preds, per_sample=False)) for _ in range(repeat)]
    ours, cpu_std = runs[0][0], statistics.median(t for _, t in runs)
    cpu_q = statistics.median(
        _cpu(lambda: codebleu(references=refs, predictions=preds, variant="quantum", lang="pennylane",
                              per_sample=False))[1] for _ in range(repeat))
    exact = max(abs(ours[k] - ref["corpus"][REF_KEYS[k]])
                for k in ("ngram_match", "weighted_ngram_match", "syntax_match"))
    gap = abs(ours["dataflow_match"] - ref["corpus"]["dataflow_match_score"])
    ratio = ref["cpu_seconds"] / cpu_std
    distinct = len(set(refs) | set(preds))
    print(f"[{name}] {n} pairs, {distinct} distinct strings; pairs/s of CPU time:")
    print(f"  reference codebleu 0.7.0 : {n / ref['cpu_seconds']:8.1f}")
    print(f"  ours, standard           : {n / cpu_std:8.1f}   ratio {ratio:.2f}x")
    print(f"  ours, quantum            : {n / cpu_q:8.1f}")
    print(f"  max |ours - ref|: ngram/weighted/syntax {exact:.1e}, dataflow {gap:.1e}")
    if exact > 1e-6 or gap > 0.01:
        raise SystemExit(f"[{name}] numbers differ from the reference")
    return ratio


def distinct_pairs(progs: list[str], n: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """``n`` pairs, every string once: program i against a mutation of program i + n."""
    import random

    rng = random.Random(seed)
    order = rng.sample(range(len(progs)), len(progs))
    if len(order) < 2 * n:
        raise SystemExit(f"only {len(order)} programs: need {2 * n} for {n} distinct pairs")
    refs = [progs[i] for i in order[:n]]
    preds = [corpus.mutate(progs[i], rng) for i in order[n:2 * n]]
    return refs, preds


def run_speed(args) -> None:
    progs = programs()
    print(f"{len(progs)} programs of 30-80 lines")
    speed("distinct", *distinct_pairs(progs, min(args.pairs, len(progs) // 2), seed=4), args.repeat)
    speed("k-samples", *corpus.sampled_pairs(progs, args.pairs // args.k, args.k, seed=1),
          args.repeat)
    speed("pool", *corpus.make_pairs(progs, args.pairs, seed=2), args.repeat)


# --- seed gap ---------------------------------------------------------------------------------

def seed_gap_corpora(up: Path) -> dict[str, tuple[list[str], list[str]]]:
    import json

    tasks = []
    for name in ("dataset_qiskit_test_human_eval.json", "dataset_qiskit_test_human_eval_hard.json"):
        path = up / "qiskit_humaneval" / name
        if path.is_file():
            tasks += json.loads(path.read_text())
    full = [t["prompt"] + t["canonical_solution"] for t in tasks]
    templates = [t for t in corpus.qhack_templates(up).values() if t.strip()]
    return {
        "humaneval solution vs prompt": (full, [t["prompt"] for t in tasks]),
        "humaneval solution vs next": (full, full[1:] + full[:1]),
        "qhack template vs next": (templates, templates[1:] + templates[:1]),
    }


def run_seed_gap(args) -> None:
    up = upstream()
    if up is None:
        raise SystemExit("seed-gap needs the upstream material: set QCE_GITHUB_URL")
    for name, (refs, preds) in seed_gap_corpora(up).items():
        ref = run_reference(refs, preds, per_sample=True)
        ours = codebleu(references=refs, predictions=preds)
        d_df = [abs(a["dataflow_match"] - b["dataflow_match_score"])
                for a, b in zip(ours["per_sample"], ref["per_sample"], strict=True)]
        d_cb = [abs(a["codebleu"] - b["codebleu"])
                for a, b in zip(ours["per_sample"], ref["per_sample"], strict=True)]
        moved = [d for d in d_df if d > 1e-9]
        print(f"[{name}] {len(preds)} pairs: dataflow differs on {len(moved)} "
              f"(max {max(d_df):.4f}, mean over those {statistics.mean(moved) if moved else 0:.4f});"
              f" per-pair codebleu max {max(d_cb):.4f}; corpus dataflow "
              f"{ours['dataflow_match']:.6f} vs {ref['corpus']['dataflow_match_score']:.6f}, "
              f"codebleu {ours['codebleu']:.6f} vs {ref['corpus']['codebleu']:.6f}")


# --- quantum keys -----------------------------------------------------------------------------

_GATE_SWAPS = [(".h(", ".x("), (".cx(", ".cz("), (".x(", ".h("), (".ry(", ".rx("),
               (".rz(", ".rx("), (".measure(", ".reset(")]
_PL_SWAPS = [("qml.RX", "qml.RY"), ("qml.RY", "qml.RZ"), ("qml.RZ", "qml.RX"),
             ("qml.CNOT", "qml.CZ"), ("qml.Hadamard", "qml.PauliX"), ("qml.PauliX", "qml.Hadamard"),
             ("qml.expval", "qml.var"), ("qml.probs", "qml.state")]


def _swap_first(code: str, swaps) -> str | None:
    for a, b in swaps:
        i = code.find(a)
        if i >= 0:
            return code[:i] + b + code[i + len(a):]
    return None


def _mean_score(refs, preds, **kw) -> tuple[float, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = codebleu(references=refs, predictions=preds, variant="quantum", **kw)
    per = out["per_sample"]
    return (statistics.mean(p["codebleu"] for p in per),
            statistics.mean(p["dataflow_match"] for p in per))


def run_keys(args) -> None:
    import json

    up = upstream()
    if up is None:
        raise SystemExit("keys needs the upstream material: set QCE_GITHUB_URL")
    tasks = json.loads(corpus._files(up / "qiskit_humaneval", "dataset_qiskit_test_human_eval.json")[0].read_text())
    refs, swapped, renamed = [], [], []
    for t in tasks:
        code = t["prompt"] + t["canonical_solution"]
        m = re.search(r"^\s*(\w+)\s*=\s*QuantumCircuit\s*\(", code, re.M)
        swap = _swap_first(code, _GATE_SWAPS)
        if not m or swap is None or m.group(1) == "renamed_circuit":
            continue
        refs.append(code)
        swapped.append(swap)
        renamed.append(re.sub(rf"\b{m.group(1)}\b", "renamed_circuit", code))
    print(f"[qiskit, lang='qiskit'] {len(refs)} HumanEval solutions with a circuit variable: "
          "mean codebleu (key match)")
    for label, preds in (("one gate swapped", swapped), ("circuit renamed", renamed)):
        cb, km = _mean_score(refs, preds, lang="qiskit")
        print(f"  {label:17}: {cb:.4f} ({km:.4f})")
    cb, km = _mean_score(refs, swapped, lang="pennylane")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        codebleu(references=refs, predictions=swapped, variant="quantum", lang="pennylane", per_sample=False)
    print(f"  gate swap scored with lang='pennylane': {cb:.4f} ({km:.4f}); "
          f"warnings: {len(caught)}")
    snippets = [p for p in corpus.qhack_programs(up, 3, 80)
                if "qml." in p and "import pennylane" not in p]
    pairs = [(p, s) for p in snippets if (s := _swap_first(p, _PL_SWAPS)) is not None]
    cb, km = _mean_score([p for p, _ in pairs], [s for _, s in pairs], lang="pennylane")
    print(f"[pennylane, no import line] {len(pairs)} functions of the QHack templates, one "
          f"gate/measurement swapped: mean codebleu {cb:.4f}, key match {km:.4f}")


# --- hallucination check on real code ---------------------------------------------------------

FAKES = {
    "gate": ["qml.RXY(0.1, wires=0)", "qml.ControlledHadamardGate(wires=[0, 1])",
             "qml.SqrtCNOT(wires=[0, 1])", "qml.PauliXY(wires=0)"],
    "template": ["qml.templates.QuantumConvolutionLayers(w, wires=[0, 1])",
                 "qml.StronglyEntanglingLayer(w, wires=[0, 1])",
                 "qml.AmplitudeEncoding([1, 0], wires=0)", "qml.templates.RandomLayer(w, wires=0)"],
    "measurement": ["qml.expectation(qml.PauliZ(0))", "qml.probability(wires=0)",
                    "qml.measure_all()", "qml.expval_all(wires=[0, 1])"],
    "submodule": ["qml.quantum_ml.Layer(2)", "qml.optimizers.AdamOptimizer(0.1)",
                  "qml.noise_models.Depolarizing(0.1)", "qml.circuits.bell_state()"],
    "device": ["qml.device('default.qubits', wires=2)", "qml.device('lightning.qbit', wires=2)",
               "qml.device('default.quantum', wires=2)", "qml.device('qubit.default', wires=2)"],
}
VERSIONS = ("0.28", "0.34", "0.45")


def doc_examples(version: str) -> list[str]:
    """The ``>>>`` examples of every docstring in PennyLane ``version``'s own sources (its
    wheel, or the installed package), one snippet per docstring."""
    import ast
    import doctest

    from quantum_codegen_eval.loaders.pennylane_api_index import release_files

    sources, _ = release_files(version)
    parser, out = doctest.DocTestParser(), []
    for mod, text in sorted(sources.items()):
        if "tests" in mod.split("."):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(text)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node)
                if doc and ">>>" in doc:
                    try:
                        examples = parser.get_examples(doc)
                    except ValueError:
                        continue
                    snippet = "".join(e.source for e in examples)
                    if "qp." in snippet and "as qp" not in snippet:
                        snippet = "import pennylane as qp\n" + snippet  # 0.45's docs say qp
                    if "qml." in snippet or "pennylane" in snippet:
                        out.append(snippet)
    return out


def _check(codes: list[str], version: str) -> dict:
    from quantum_codegen_eval.metrics.hallucination import find_hallucinations

    stats = {"files": len(codes), "unparsable": 0, "refs": 0, "hallucinated": 0,
             "files_with_fp": 0, "drift": 0, "private": 0, "names": []}
    for code in codes:
        try:
            found = find_hallucinations(code, version)
        except Exception:  # noqa: BLE001 -- CodeParseError
            stats["unparsable"] += 1
            found = find_hallucinations(code, version, recover=True)
        stats["refs"] += len(found)
        bad = [f for f in found if f.status == "hallucinated"]
        stats["hallucinated"] += len(bad)
        stats["files_with_fp"] += bool(bad)
        stats["drift"] += sum(f.status in ("removed", "too_new") for f in found)
        stats["private"] += sum(f.status == "private" for f in found)
        stats["names"] += [f.name for f in bad]
    return stats


def run_hallucination(args) -> None:
    from collections import Counter

    from quantum_codegen_eval.metrics.hallucination import find_hallucinations

    up = upstream()
    if up is None:
        raise SystemExit("hallucination needs the upstream material: set QCE_GITHUB_URL")
    templates = list(corpus.qhack_templates(up).values())
    humaneval = corpus.humaneval_programs(up)
    corpora = {"qhack templates": lambda v: templates, "qiskit humaneval": lambda v: humaneval,
               "pennylane doc examples (own release)": doc_examples}
    print("false positives = references reported 'hallucinated' in real code")
    for name, get in corpora.items():
        for v in VERSIONS:
            version = {"0.28": "0.28.0", "0.34": "0.34.0", "0.45": "0.45.1"}[v]
            st = _check(get(version), v)
            common = Counter(st["names"]).most_common(4)
            print(f"[{name} @ {v}] {st['files']} files ({st['unparsable']} unparsable, recovered),"
                  f" {st['refs']} refs: {st['hallucinated']} false positives "
                  f"({st['hallucinated'] / st['files']:.3f}/file, {st['files_with_fp']} files), "
                  f"{st['private']} private, {st['drift']} removed/too_new; top: {common}")
    print("recall on injected fakes: one fake line appended to each QHack template")
    for kind, fakes in FAKES.items():
        for v in VERSIONS:
            hit = total = 0
            for i, code in enumerate(templates):
                fake = fakes[i % len(fakes)]
                injected = code.rstrip("\n") + "\n" + fake + "\n"
                try:
                    found = find_hallucinations(injected, v)
                except Exception:  # noqa: BLE001 -- CodeParseError
                    found = find_hallucinations(injected, v, recover=True)
                line = injected.count("\n")
                total += 1
                hit += any(f.line == line and f.status == "hallucinated" for f in found)
            print(f"  {kind:11} @ {v}: {hit}/{total} detected ({hit / total:.1%})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", nargs="*", default=["speed", "seed-gap", "keys", "hallucination"],
                    choices=["speed", "seed-gap", "keys", "hallucination"])
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--k", type=int, default=5, help="predictions per reference (k-samples)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of ours (median CPU time)")
    args = ap.parse_args()
    for what in args.what:
        {"speed": run_speed, "seed-gap": run_seed_gap, "keys": run_keys,
         "hallucination": run_hallucination}[what](args)


if __name__ == "__main__":
    main()
