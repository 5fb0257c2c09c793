"""QCoder builder: the 67 statement files (+ optional human submissions) -> a dataset folder.

The upstream repository QCoder-Bench/QCoder-Benchmark is read in its own layout
(``codes/Problems/<id>.txt``, ``codes/rules.txt``) at the commit pinned in ``REPOSITORIES``, every
file verified against the shipped manifest (``quantum_codegen_eval/data/manifests/qcoder.json``).
Every field of a ``problems`` record is parsed from the statement text (nothing is typed in by
hand, except the code format of QPC002_B5, which upstream's file leaves as a placeholder: it is
rendered as the QCoder site shows it, ``SITE_FORMATS``); ``submissions`` and ``revisions`` come from the QCoder human-submission JSONL
(``tm0012-QCB/QCoderBenchmark``, file ``QCoder_Benchmark.jsonl``), given as a local path or a
Hub id through the ``submissions`` option.

>>> info = parse_statement("QPC001_A2", "## Problem Statement\\nYou are given an integer $n$.\\n"
...     "## Constraints\\n- $1 \\\\leq n \\\\leq 10$\\n- Global phase is ignored in judge.\\n"
...     "- The submitted code must follow the specified format:\\n\\n"
...     "    from qiskit import QuantumCircuit\\n\\n    def solve(n: int) -> QuantumCircuit:\\n"
...     "        qc = QuantumCircuit(n)\\n        return qc\\n")
>>> info["signature"], info["global_phase"], info["parameter_ranges"][0]["high"]
('def solve(n: int) -> QuantumCircuit:', 'ignored', '10')
"""

from __future__ import annotations

import json
import re
import textwrap
from collections import defaultdict
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Any

from quantum_codegen_eval import upstream
from quantum_codegen_eval.benchmarks.qcoder import features, judged_code
from quantum_codegen_eval.upstream import Repo, Tree

CONFIGS = ("problems", "submissions", "revisions")
SPLITS = {"problems": "test", "submissions": "train", "revisions": "train"}
SUBMISSIONS_HUB_ID = "tm0012-QCB/QCoderBenchmark"
SUBMISSIONS_FILE = "QCoder_Benchmark.jsonl"
SUBMISSION_FIELDS = ("problem", "result", "user", "submission_order", "code")

KEY = "qcoder"
REPOSITORIES = {KEY: Repo("QCoder-Bench", "QCoder-Benchmark", "7bda889413b5123ca46960b9af11c4ab0d508e88")}
PROBES = {KEY: "codes/rules.txt"}
PROBLEMS_GLOB = "codes/Problems/*.txt"
RULES = "codes/rules.txt"

_FORMAT_LINE = "The submitted code must follow the specified format:"
_MISSING_TEMPLATE = "((FORMAT TO BE ADDED DURING RENDERING))"
#: the format the QCoder site renders where upstream's file keeps the placeholder (the one case:
#: QPC002_B5, https://qcoder.jp/en/contests/QPC002/problems/B5; the ``solve`` the judge calls)
SITE_FORMATS = {"QPC002_B5": ("from qiskit import QuantumCircuit\n\n"
                              "def solve(n: int, m: int, S: list[int]) -> QuantumCircuit:\n"
                              "    qc = QuantumCircuit(n)\n    # Write your code here:\n\n"
                              "    return qc")}


class QCoderSourceError(ValueError):
    """Bad upstream input; the message names the file and record."""


# --------------------------------------------------------------------------- statement parsing

def _sections(text: str) -> dict[str, str]:
    """Markdown sections by heading (``## X`` and ``### X``; first occurrence wins)."""
    out: dict[str, str] = {}
    name, buf = None, []
    for line in text.splitlines():
        m = re.match(r"^#{2,3}\s+(.*\S)\s*$", line)
        if m:
            if name is not None and name not in out:
                out[name] = "\n".join(buf).strip("\n")
            name, buf = m.group(1), []
        else:
            buf.append(line)
    if name is not None and name not in out:
        out[name] = "\n".join(buf).strip("\n")
    return out


def _template(constraints: str) -> str:
    """The code block after the 'specified format' bullet ('' when upstream left it out)."""
    lines = constraints.splitlines()
    for i, line in enumerate(lines):
        if _FORMAT_LINE in line:
            body = [ln for ln in lines[i + 1:] if ln.strip() not in ("'''python", "'''", "```python", "```")]
            code = textwrap.dedent("\n".join(body)).strip("\n")
            return "" if _MISSING_TEMPLATE in code else code + "\n"
    return ""


def _signature(template: str) -> tuple[str, list[dict[str, str]], str]:
    m = re.search(r"^\s*(def solve\((.*?)\)\s*(?:->\s*(.*?))?:)\s*$", template, re.M)
    if not m:
        return "", [], ""
    params = []
    for part in filter(None, (p.strip() for p in _split_top(m.group(2)))):
        name, _, ann = part.partition(":")
        params.append({"name": name.strip(), "annotation": ann.strip()})
    return m.group(1).strip(), params, (m.group(3) or "").strip()


def _split_top(s: str) -> list[str]:
    """Split on commas outside brackets (``S: list[int], theta: float``)."""
    parts, depth, cur = [], 0, ""
    for ch in s:
        depth += ch in "[("
        depth -= ch in "])"
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return parts + [cur]


_REL = r"\\leq|\\le\b|\\lt|<|\\geq|>"
_IDENT = r"[A-Za-z\\]+(?:_(?:\{(?:[^{}]|\{[^{}]*\})*\}|[A-Za-z0-9]))?"


def _ranges(constraints: str) -> tuple[list[str], list[dict[str, Any]]]:
    """Math-only constraint bullets, and ``low <= name <= high`` entries read from chains."""
    raw, ranges = [], []
    for line in constraints.splitlines():
        m = re.match(r"^\s*-\s*\$(.*)\$\s*$", line)
        if not m or not re.search(_REL, m.group(1)):
            continue
        expr = m.group(1).strip()
        raw.append(expr)
        terms = [t.strip() for t in re.split(_REL, expr)]
        ops = re.findall(_REL, expr)
        for i, term in enumerate(terms):
            names = [t.strip() for t in term.split(",")]
            if not all(re.fullmatch(_IDENT, n) for n in names) or term in ("\\pi",):
                continue
            for name in names:
                ranges.append({
                    "name": name,
                    "low": terms[i - 1] if i > 0 else None,
                    "low_strict": ops[i - 1] in ("<", "\\lt") if i > 0 else None,
                    "high": terms[i + 1] if i + 1 < len(terms) else None,
                    "high_strict": ops[i] in ("<", "\\lt") if i + 1 < len(terms) else None,
                    "constraint": expr,
                })
    return raw, ranges


def _samples(section: str) -> list[dict[str, str]]:
    samples: list[dict[str, str]] = []
    for line in section.splitlines():
        m = re.match(r"^-\s+(.*)$", line)
        if m:
            head, _, tail = m.group(1).partition(":")
            samples.append({"input": head.strip(), "output": tail.strip()})
        elif samples:
            samples[-1]["output"] = (samples[-1]["output"] + "\n" + line).strip("\n")
    for s in samples:
        s["output"] = s["output"].strip()
    return samples


def render_format(problem_id: str, text: str) -> str:
    """The statement with upstream's format placeholder replaced by the format the QCoder site
    shows for the problem (``SITE_FORMATS``), indented as the other statements have it."""
    if _MISSING_TEMPLATE not in text or problem_id not in SITE_FORMATS:
        return text
    block = "\n" + textwrap.indent(SITE_FORMATS[problem_id], "    ", lambda ln: bool(ln.strip()))
    return text.replace(_MISSING_TEMPLATE, block, 1)


def parse_statement(problem_id: str, text: str) -> dict[str, Any]:
    """Parse one statement file into the fields of a ``problems`` record (upstream fields aside).
    ``template_missing``: upstream's file has no format (the placeholder); the statement and
    template are then the site's rendering where ``SITE_FORMATS`` has it."""
    missing = _MISSING_TEMPLATE in text
    text = render_format(problem_id, text)
    sec = _sections(text)
    if "Problem Statement" not in sec:
        raise QCoderSourceError(f"{problem_id}: no '## Problem Statement' section")
    constraints = sec.get("Constraints", "")
    if _FORMAT_LINE not in constraints:
        raise QCoderSourceError(f"{problem_id}: no code-format bullet in the Constraints section")
    template = _template(constraints)
    signature, params, returns = _signature(template)
    raw, ranges = _ranges(constraints)
    body = sec["Problem Statement"]
    if returns and "QuantumCircuit" not in returns:
        kind = "classical"
    elif re.search(r"prepar|zero state", body):
        kind = "state_preparation"
    else:
        kind = "unitary"
    if re.search(r"will not be considered correct", constraints):
        phase = "counted"
    elif re.search(r"Global phase.{0,20}is ignored", constraints):
        phase = "ignored"
    else:
        phase = "unspecified"
    depth = re.search(r"depth\s*must not exceed \$(\d+)\$", constraints)
    query = re.search(r"number of applied (.+?) must not exceed \$(\d+)\$", constraints)
    registers = re.findall(r"QuantumRegister\(([^)]*)\)", template)
    circ = re.search(r"QuantumCircuit\(([^)]*)\)", template.split("def solve", 1)[-1])
    if registers:
        num_qubits = " + ".join(r.strip() for r in registers)
    else:
        num_qubits = circ.group(1).strip() if circ and kind != "classical" else ""
    return {
        "id": problem_id,
        "contest": problem_id.split("_")[0],
        "statement": text,
        "problem_statement": body,
        "template": template,
        "template_missing": missing or not template,
        "signature": signature,
        "parameters": params,
        "return_type": returns,
        "kind": kind,
        "given_circuits": [p["name"] for p in params
                           if p["annotation"] in ("", "QuantumCircuit") and kind != "classical"],
        "parameter_constraints": raw,
        "parameter_ranges": ranges,
        "depth_limit": int(depth.group(1)) if depth else None,
        "query_limit_gate": query.group(1).strip("$") if query else None,
        "query_limit": int(query.group(2)) if query else None,
        "global_phase": phase,
        "little_endian": "little-endian" in constraints,
        "banned_gates": sorted(set(re.findall(r"cann+ot use Qiskit's (\w+)", constraints))),
        "registers": [r.strip() for r in registers],
        "num_qubits": num_qubits,
        "samples": _samples(sec.get("Sample Input", "")),
        "hints": sec.get("Hints", ""),
    }


def parse_rules(text: str) -> list[str]:
    """Allowed imports from rules.txt as dotted names (``qiskit.QuantumCircuit``, ``numpy``)."""
    block = text.split("Permitted Modules", 1)[-1].split("## Rules", 1)[0]
    allowed = []
    for line in block.splitlines():
        ticks = re.findall(r"`([^`]+)`", line)
        if not ticks:
            continue
        stmt = ticks[-1]
        m = re.fullmatch(r"from\s+([\w.]+)\s+import\s+(\w+)", stmt)
        if m:
            allowed.append(f"{m.group(1)}.{m.group(2)}")
            continue
        m = re.fullmatch(r"import\s+([\w.]+)", stmt)
        allowed.append(m.group(1) if m else stmt)
    return allowed


def _upstream_fields(tree: Tree, path: str) -> dict[str, str]:
    return {"upstream_repo": f"https://github.com/{tree.repo.slug}",
            "upstream_commit": tree.commit, "upstream_path": path}


def records_from_tree(tree: Tree) -> list[dict[str, Any]]:
    """All problem records from the upstream repository (``codes/Problems/*.txt``, ``codes/rules.txt``)."""
    files = tree.glob(PROBLEMS_GLOB)
    if not files:
        raise QCoderSourceError(f"{tree.root}: no {PROBLEMS_GLOB} statement files")
    if not tree.exists(RULES):
        raise QCoderSourceError(f"{tree.root}: missing {RULES}")
    rules = tree.read_text(RULES)
    allowed = parse_rules(rules)
    rows = []
    for path in files:
        rec = parse_statement(PurePosixPath(path).stem, tree.read_text(path))
        rec.update(allowed_imports=allowed, rules=rules, **_upstream_fields(tree, path))
        rows.append(rec)
    return rows


def read_problems(source: Any = None, *, github_url: str | None = None,
                  progress: bool = True) -> list[dict[str, Any]]:
    """All problem records, verified against the manifest (``source`` None: download)."""
    with upstream.open_trees(upstream.load_manifest("qcoder"), source, github_url=github_url,
                             progress=progress) as trees:
        return records_from_tree(trees[KEY])


def manifest_entries(trees: dict[str, Tree]) -> list[dict[str, Any]]:
    """Per-problem facts for the manifest (reads every file the builder reads)."""
    return [{"id": r["id"], "contest": r["contest"], "repository": KEY, "path": r["upstream_path"]}
            for r in records_from_tree(trees[KEY])]


# --------------------------------------------------------------------------- submissions

def hub_submissions(hub_id: str = SUBMISSIONS_HUB_ID) -> Path:
    """``QCoder_Benchmark.jsonl`` downloaded from the Hub dataset (cached by huggingface_hub)."""
    from huggingface_hub import hf_hub_download

    try:
        return Path(hf_hub_download(hub_id, SUBMISSIONS_FILE, repo_type="dataset"))
    except Exception as exc:  # offline, gated, renamed: huggingface_hub raises many kinds
        raise QCoderSourceError(
            f"submissions: cannot download {SUBMISSIONS_FILE} from the Hub dataset {hub_id} "
            f"({type(exc).__name__}); download it from https://huggingface.co/datasets/{hub_id} "
            f"and pass the file: --option submissions=PATH/{SUBMISSIONS_FILE}") from exc


def read_submissions(spec: str | Path) -> list[dict[str, Any]]:
    """Rows of QCoder_Benchmark.jsonl from a local path, ``hub`` or a Hub dataset id."""
    path = Path(spec)
    if str(spec) == "hub":
        path = hub_submissions()
    elif not path.exists():
        if re.fullmatch(r"[\w.-]+/[\w.-]+", str(spec)):
            path = hub_submissions(str(spec))
        else:
            raise QCoderSourceError(f"submissions: {spec} is neither a file, 'hub' nor a Hub id")
    rows = []
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise QCoderSourceError(f"{path}:{no}: not JSON ({exc.msg})") from exc
            missing = [k for k in SUBMISSION_FIELDS if k not in row]
            if missing:
                raise QCoderSourceError(f"{path}:{no}: missing field(s) {', '.join(missing)}")
            try:
                order = int(row["submission_order"])
            except (TypeError, ValueError) as exc:
                raise QCoderSourceError(
                    f"{path}:{no}: submission_order {row['submission_order']!r} is not an integer"
                ) from exc
            rows.append({"problem": str(row["problem"]), "user": str(row["user"]),
                         "submission_order": order, "result": str(row["result"]),
                         "code": str(row["code"]), "line": no})
    return rows


def group_revisions(rows: list[dict[str, Any]]) -> tuple[list[dict], list[dict]]:
    """(submissions with version_index, revisions: one row per (problem, user) history)."""
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in rows:
        groups[(r["problem"], r["user"])].append(r)
    subs, revs = [], []
    for (problem, user), items in sorted(groups.items()):
        items.sort(key=lambda r: (r["submission_order"], r["line"]))
        results = [r["result"] for r in items]
        for i, r in enumerate(items):
            subs.append({"problem": problem, "user": user, "submission_order": r["submission_order"],
                         "version_index": i, "result": r["result"], "code": r["code"],
                         "extracted_code": judged_code(r["code"])})
        revs.append({"problem": problem, "user": user, "num_versions": len(items),
                     "submission_orders": [r["submission_order"] for r in items],
                     "results": results, "codes": [judged_code(r["code"]) for r in items],
                     "first_ac_index": results.index("AC") if "AC" in results else None})
    return subs, revs


# --------------------------------------------------------------------------- writing

def card_for(counts: dict[str, int], sizes: dict[str, int] | None = None) -> str:
    """The dataset card, keeping only the configs that have rows."""
    from quantum_codegen_eval.dataset_cards import card_body, yaml_header
    from quantum_codegen_eval.publish import read_card_yaml

    meta = read_card_yaml(resources.files("quantum_codegen_eval.dataset_cards") / "qcoder")
    for key in ("configs", "dataset_info"):
        meta[key] = [c for c in meta[key] if counts.get(c["config_name"])]
    for info in meta["dataset_info"]:
        cfg = info["config_name"]
        info["splits"] = [{"name": SPLITS[cfg], "num_bytes": (sizes or {}).get(cfg, 0),
                           "num_examples": counts[cfg]}]
    return yaml_header(meta) + card_body("qcoder")


def build(source: str | Path | None, out: str | Path, *, github_url: str | None = None,
          progress: bool = True, **options: Any) -> dict[str, Any]:
    """Build the dataset folder ``out`` (Parquet per config + README.md card).

    ``source``: a local copy of the upstream repository (checkout, unpacked archive, a folder
    holding it, or its .tar.gz); None downloads it at the pinned commit (``github_url`` or
    ``$QCE_GITHUB_URL``). Every file read is verified against the shipped manifest. Option
    ``submissions``: ``hub`` (``tm0012-QCB/QCoderBenchmark`` on the Hub), a Hub id or a path to
    QCoder_Benchmark.jsonl; without it the two submission configs are left out (folder and card)
    because ``datasets`` cannot load an empty split.
    """
    from datasets import Dataset

    unknown = set(options) - {"submissions"}
    if unknown:
        raise QCoderSourceError(f"qcoder build: unknown option(s) {', '.join(sorted(unknown))}")
    problems = read_problems(source, github_url=github_url, progress=progress)
    subs_spec = options.get("submissions")
    subs, revs = group_revisions(read_submissions(subs_spec)) if subs_spec else ([], [])
    out = Path(out)
    counts, sizes = {}, {}
    for config, rows in (("problems", problems), ("submissions", subs), ("revisions", revs)):
        folder = out / config
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.parquet"):
            old.unlink()
        counts[config] = len(rows)
        if not rows:  # datasets cannot load an empty split: the card leaves the config out
            folder.rmdir()
            continue
        ds = Dataset.from_list(rows, features=features(config))
        ds.to_parquet(str(folder / f"{SPLITS[config]}-00000-of-00001.parquet"))
        sizes[config] = int(ds.data.nbytes)
    (out / "README.md").write_text(card_for(counts, sizes), encoding="utf-8")
    return {"dataset": "qcoder", "out": str(out), "rows": counts,
            "submissions_source": str(subs_spec) if subs_spec else None,
            "upstream_commit": problems[0]["upstream_commit"]}
