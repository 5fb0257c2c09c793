"""Real-code (reference, prediction) pairs for the CodeBLEU parity test and bench.

Programs are read at run time from code already on the machine, never stored in this repo:
function definitions of the installed ``pennylane`` and ``qiskit`` packages, the QHack templates
and notebooks and the Qiskit HumanEval prompts + canonical solutions of the upstream folder.
Each program is paired with a related one so that scores spread over [0, 1]: a mutated copy of
itself (high), its neighbour from the same file or dataset (middle), or a random program (low).

>>> progs = package_functions("json", min_lines=3, max_lines=40)
>>> len(progs) > 5 and all(isinstance(p, str) for p in progs)
True
"""

from __future__ import annotations

import ast
import importlib.util
import json
import random
import re
import warnings
from pathlib import Path


def _functions(source: str, min_lines: int, max_lines: int) -> list[str]:
    try:
        with warnings.catch_warnings():  # old escape sequences in third-party sources
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    lines = source.splitlines()
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno:
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            n = node.end_lineno - start + 1
            if min_lines <= n <= max_lines:
                chunk = lines[start - 1 : node.end_lineno]
                indent = len(chunk[0]) - len(chunk[0].lstrip())
                out.append("\n".join(line[indent:] for line in chunk))
    return out


def package_functions(
    package: str, min_lines: int = 5, max_lines: int = 80, under: str = ""
) -> list[str]:
    """Function definitions (decorators included) from an installed package's source,
    optionally only from the sub-folder ``under`` (e.g. ``"templates"``)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return []
    root = Path(next(iter(spec.submodule_search_locations))) / under
    out: list[str] = []
    for path in sorted(root.rglob("*.py")):
        if "tests" in path.parts:
            continue
        out += _functions(path.read_text(encoding="utf8", errors="replace"), min_lines, max_lines)
    return out


def humaneval_programs(upstream: Path) -> list[str]:
    """Qiskit HumanEval prompt + canonical solution, one program per task (the dataset files
    anywhere under ``upstream/qiskit_humaneval``, e.g. in an unpacked upstream repository)."""
    out = []
    for name in ("dataset_qiskit_test_human_eval.json", "dataset_qiskit_test_human_eval_hard.json"):
        for path in sorted((upstream / "qiskit_humaneval").rglob(name)):
            out += [t["prompt"] + t["canonical_solution"] for t in json.loads(path.read_text())]
    return out


def qhack_programs(upstream: Path, min_lines: int = 5, max_lines: int = 80) -> list[str]:
    """Functions from the QHack templates and from the code cells of the QHack notebooks."""
    out: list[str] = []
    root = upstream / "qhack"
    for path in sorted(root.rglob("*.py")):
        out += _functions(path.read_text(encoding="utf8", errors="replace"), min_lines, max_lines)
    for path in sorted(root.rglob("*.ipynb")):
        try:
            cells = json.loads(path.read_text(encoding="utf8"))["cells"]
        except (ValueError, KeyError):
            continue
        code = "\n".join(
            "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in cells
            if c.get("cell_type") == "code"
        )
        code = re.sub(r"^\s*[%!].*$", "", code, flags=re.M)  # IPython magics
        out += _functions(code, min_lines, max_lines)
    return out


_SWAPS = [("RX", "RY"), ("RY", "RZ"), ("CNOT", "CZ"), (".h(", ".x("), (".cx(", ".cz("),
          ("expval", "probs"), ("default.qubit", "lightning.qubit"), ("0", "1"), ("+", "-")]


def mutate(code: str, rng: random.Random) -> str:
    """A plausible near-miss: a few line deletions, swaps, renames and API substitutions."""
    lines = code.splitlines()
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        if len(lines) > 3 and op < 0.3:
            del lines[rng.randrange(1, len(lines))]
        elif len(lines) > 3 and op < 0.5:
            i = rng.randrange(1, len(lines) - 1)
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif op < 0.75:
            names = sorted(set(re.findall(r"\b[a-z_][a-z0-9_]{2,}\b", "\n".join(lines))))
            if names:
                old = rng.choice(names)
                lines = [re.sub(rf"\b{old}\b", old + "_v", line) for line in lines]
        else:
            a, b = rng.choice(_SWAPS)
            lines = [line.replace(a, b) for line in lines]
    return "\n".join(lines)


def sampled_pairs(programs: list[str], n_refs: int, k: int, seed: int = 0):
    """``n_refs`` references with ``k`` predictions each, as when scoring k samples per problem:
    ``k - 1`` mutated copies and one neighbouring program."""
    rng = random.Random(seed)
    chosen = rng.sample(range(len(programs)), min(n_refs, len(programs)))
    refs, preds = [], []
    for i in chosen:
        for j in range(k):
            other = programs[(i + 1) % len(programs)] if j == k - 1 else mutate(programs[i], rng)
            refs.append(programs[i])
            preds.append(other)
    return refs, preds


def make_pairs(programs: list[str], n: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """``n`` (reference, prediction) pairs: 40% mutated copy, 40% neighbour, 20% random."""
    if len(programs) < 2:
        raise ValueError("need at least two programs to pair")
    rng = random.Random(seed)
    refs, preds = [], []
    for k in range(n):
        i = rng.randrange(len(programs))
        kind = k % 5
        if kind < 2:
            other = mutate(programs[i], rng)
        elif kind < 4:
            other = programs[(i + 1) % len(programs)]
        else:
            other = programs[rng.randrange(len(programs))]
        refs.append(programs[i])
        preds.append(other)
    return refs, preds
