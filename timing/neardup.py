"""Measurement: the near-duplicate score (:mod:`quantum_codegen_eval.neardup`) on a real corpus.

    .venv/bin/python timing/neardup.py CORPUS [--n 3 4 5 6 8 10] [--threshold 0.5]
        [--scale 13000] [--json FILE]

``CORPUS``: a PennySynth-schema corpus, e.g. the one ``qce build pennysynth --out CORPUS``
builds offline from the installed PennyLane's docstrings. For each n-gram length ``n``:

* **pairs**: every pair of corpus entries, counted by Jaccard similarity in bins of 0.1 (and
  how many at or above ``--threshold``), with the closest pairs listed;
* **copies**: every entry copied four ways and scored against its original: *renamed* (every
  local name replaced), *reformatted* (other layout, a comment), *line added* (one plausible
  statement, e.g. ``print("done")`` or ``qml.Barrier(wires=0)``, inserted at a random place of a
  random block), *reordered* (two adjacent independent statements swapped, where the entry has
  such a pair); their minimum, 5th percentile, median and the share at or above the threshold;
* **cost** (``--scale``): an index of that many entries (the corpus, then its line-added copies
  until the count is reached: a worst case, every entry has near twins) is built and
  queried with 1,000 candidates (line-added copies of entries): seconds of the build, of
  normalising the candidates and of matching them.

Randomness is seeded (the same copies every run).
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import statistics
import sys
import time
from array import array
from pathlib import Path

SWEEP = (0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9)
#: two different programs of one PennyLane idiom each (entries of the corpus built from
#: PennyLane 0.45.1's docstrings; pairs a corpus lacks are skipped)
IDIOM_PAIRS = (
    ("pennylane-docs/pennylane.measurements.purity.purity/1",
     "pennylane-docs/pennylane.measurements.var.var/0"),
    ("pennylane-docs/pennylane.ops.qubit.parametric_ops_single_qubit.Rot.compute_decomposition/0",
     "pennylane-docs/pennylane.ops.qubit.parametric_ops_single_qubit.U3.compute_decomposition/0"),
    ("pennylane-docs/pennylane.wires.Wires.intersection/0",
     "pennylane-docs/pennylane.wires.Wires.union/0"),
    ("pennylane-docs/pennylane.io.to_openqasm.to_openqasm/3",
     "pennylane-docs/pennylane.measurements.classical_shadow.classical_shadow/0"),
)
LINES = ('print("done")', "qml.Barrier(wires=0)", "np.random.seed(42)",
         'dev2 = qml.device("default.qubit", wires=1)')


def _bodies(tree: ast.AST) -> list[list[ast.stmt]]:
    return [node.body for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.For, ast.With, ast.If))]


def renamed(code: str) -> str:
    """Every name the program binds (variables, functions, arguments; not methods, which
    override an API) renamed."""
    tree = ast.parse(code)
    methods = {id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for f in c.body}
    bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    bound |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and id(n) not in methods}
    bound |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in bound:
            node.id = f"renamed_{node.id}"
        elif isinstance(node, ast.FunctionDef) and node.name in bound and id(node) not in methods:
            node.name = f"renamed_{node.name}"
        elif isinstance(node, ast.arg) and node.arg in bound:
            node.arg = f"renamed_{node.arg}"
    return ast.unparse(tree)


def reformatted(code: str) -> str:
    """Another layout (ast.unparse's), with a comment line."""
    return "# a copy\n" + ast.unparse(ast.parse(code)).replace(", ", ",  ")


def line_added(code: str, rng: random.Random) -> str:
    tree = ast.parse(code)
    body = rng.choice(_bodies(tree))
    body.insert(rng.randrange(len(body) + 1), ast.parse(rng.choice(LINES)).body[0])
    return ast.unparse(tree)


def _names(node: ast.AST, ctx: type) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)}


def reordered(code: str, rng: random.Random) -> str | None:
    """Two adjacent statements swapped, where neither binds a name the other uses (None if the
    program has no such pair)."""
    tree = ast.parse(code)
    pairs = []
    for body in _bodies(tree):
        for i in range(len(body) - 1):
            a, b = body[i], body[i + 1]
            if any(isinstance(s, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef,
                                  ast.Return)) or ast.unparse(s) == ast.unparse(o)
                   for s, o in ((a, b), (b, a))):
                continue
            wa, wb = _names(a, ast.Store), _names(b, ast.Store)
            ra, rb = _names(a, ast.Load), _names(b, ast.Load)
            if not (wa & (rb | wb) or wb & ra):
                pairs.append((body, i))
    if not pairs:
        return None
    body, i = rng.choice(pairs)
    body[i], body[i + 1] = body[i + 1], body[i]
    return ast.unparse(tree)


def _object(entry_id: str) -> str:
    """The docstring an entry of the builder's corpus comes from (``pennylane-docs/<ref>/<k>``)."""
    return entry_id.rsplit("/", 1)[0]


def _histogram(scores: array) -> dict[str, int]:
    bins = [0] * 10
    for s in scores:
        bins[min(int(s * 10), 9)] += 1
    return {f"[{k / 10:.1f}, {(k + 1) / 10:.1f})": c for k, c in enumerate(bins)}


def _quantiles(scores: list[float], t: float) -> dict[str, float]:
    s = sorted(scores)
    return {"count": len(s), "min": round(s[0], 3), "p05": round(s[int(0.05 * (len(s) - 1))], 3),
            "median": round(statistics.median(s), 3),
            "at_or_above": round(sum(x >= t for x in s) / len(s), 4)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--n", type=int, nargs="+", default=[3, 4, 5, 6, 8, 10])
    ap.add_argument("--threshold", type=float, default=None, help="default: the package's")
    ap.add_argument("--scale", type=int, default=13000, help="entries of the cost index (0: none)")
    ap.add_argument("--top", type=int, default=12, help="closest pairs listed per n")
    ap.add_argument("--json", help="also write the result here")
    args = ap.parse_args(argv)

    from quantum_codegen_eval.neardup import (
        DEFAULT_N,
        DEFAULT_THRESHOLD,
        NearDuplicateIndex,
        jaccard,
        ngrams,
        normalised,
    )
    from quantum_codegen_eval.synthesis import corpus_seeds

    t = args.threshold if args.threshold is not None else DEFAULT_THRESHOLD
    entries = [(s.id, s.code) for s in corpus_seeds(args.corpus)]
    ok = []
    for eid, code in entries:
        try:
            ast.parse(code)
            ok.append((eid, code))
        except SyntaxError:
            pass
    rng = random.Random(0)
    copies = {"renamed": [], "reformatted": [], "line added": [], "reordered": []}
    for eid, code in ok:
        copies["renamed"].append((eid, code, renamed(code)))
        copies["reformatted"].append((eid, code, reformatted(code)))
        copies["line added"].append((eid, code, line_added(code, rng)))
        r = reordered(code, rng)
        if r is not None:
            copies["reordered"].append((eid, code, r))
    norm = {eid: normalised(code) for eid, code in entries}
    result = {"corpus": args.corpus, "entries": len(entries), "threshold": t, "by_n": {}}
    for n in args.n:
        grams = {eid: ngrams(x, n) for eid, x in norm.items()}
        ids = list(grams)
        # pairs of one docstring (example k repeats the earlier blocks it needs: mostly extended
        # copies) apart from pairs of different objects' docstrings (different programs, many of
        # one idiom: two gates' compute_decomposition, two QNodes measuring different things)
        scores: dict[str, array] = {"same docstring": array("d"), "different docstrings": array("d")}
        top: list[tuple[float, str, str]] = []
        for i, a in enumerate(ids):
            ga, na, ra = grams[a], norm[a], _object(a)
            for b in ids[i + 1:]:
                s = 1.0 if na == norm[b] else jaccard(ga, grams[b])
                scores["same docstring" if ra == _object(b) else "different docstrings"].append(s)
                if s >= 0.3 and ra != _object(b):
                    top.append((s, a, b))
        top.sort(reverse=True)
        copied = {}
        for kind, rows in copies.items():
            copied[kind] = array("d")
            for _, code, copy in rows:
                x, y = normalised(code), normalised(copy)
                copied[kind].append(1.0 if x == y else jaccard(ngrams(x, n), ngrams(y, n)))
        idiom = {f"{a} ~ {b}": round(1.0 if norm[a] == norm[b] else jaccard(grams[a], grams[b]), 3)
                 for a, b in IDIOM_PAIRS if a in norm and b in norm}
        result["by_n"][n] = {
            "pairs": {k: {"count": len(v), "histogram": _histogram(v),
                          "at_or_above": {f"{x:.2f}": sum(s >= x for s in v) for x in SWEEP}}
                      for k, v in scores.items()},
            "closest_different": [(round(s, 3), a, b) for s, a, b in top[:args.top]],
            "copies": {k: _quantiles(list(v), t) for k, v in copied.items()},
            "copies_at_or_above": {k: {f"{x:.2f}": round(sum(s >= x for s in v) / len(v), 4)
                                       for x in SWEEP} for k, v in copied.items()},
            "idiom_pairs": idiom}
        print(json.dumps({n: result["by_n"][n]}), flush=True)
    if args.scale:
        pool = list(ok)
        fill = [(f"{eid}~{k}", line_added(code, rng)) for k in range(args.scale // len(ok) + 1)
                for eid, code in ok]
        big = (entries + fill)[:args.scale]
        t0 = time.perf_counter()
        index = NearDuplicateIndex(DEFAULT_N, t)
        for eid, code in big:
            index.add(eid, code)
        built = time.perf_counter() - t0
        queries = [line_added(code, rng) for _, code in rng.choices(pool, k=1000)]
        t0 = time.perf_counter()
        norms = [normalised(q) for q in queries]
        t1 = time.perf_counter()
        hits = sum(index.match_normalised(q) is not None for q in norms)
        t2 = time.perf_counter()
        result["cost"] = {"n": DEFAULT_N, "threshold": t, "index_entries": len(big),
                          "build_s": round(built, 2), "queries": len(queries),
                          "normalise_queries_s": round(t1 - t0, 2),
                          "match_queries_s": round(t2 - t1, 2), "matched": hits}
        print(json.dumps(result["cost"], indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
