"""Build the QHack 2022–2024 coding-challenge dataset from the upstream folders.

The source folder has the layout of ``shared/benchmarks/qhack`` (see its SOURCES.md, which this
builder parses for points, tolerances, time limits, paths and commits)::

    SOURCES.md
    2022/<id>/{problem.pdf, *_template.py, N.in, N.ans}
    2023/<id>/{README.md, <name>.ipynb}
    2024/<id>/{description.md, template.ipynb}

The output is a Hub-ready folder: ``data/<config>/test-00000-of-00001.parquet`` for the configs
``all``, ``2022``, ``2023``, ``2024`` and a ``README.md`` card whose YAML declares them, so that
``datasets.load_dataset(out, "2023", split="test")`` works offline.

>>> summary = build("../shared/benchmarks/qhack", "/tmp/qhack-ds")  # doctest: +SKIP
>>> summary["counts"]  # doctest: +SKIP
{'2022': 25, '2023': 28, '2024': 21, 'all': 74}
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quantum_codegen_eval.dataset_cards import card_body, yaml_header
from quantum_codegen_eval.formats.qhack_template import parse as _parse
from quantum_codegen_eval.formats.qhack_template import solution_names, split_template
from quantum_codegen_eval.judges.qhack.checks import check_trust

YEARS = ("2022", "2023", "2024")
CONFIGS = ("all", *YEARS)
SPLIT = "test"
ERA_PENNYLANE = {"2022": "0.21.0", "2023": "0.28.0", "2024": "0.34.0"}
#: Seconds per public test when the contest gave none (2023/2024). The office_hijinks_400/500
#: harnesses run 5,000 unseeded shot-based trials per test (about 130 s each here).
DEFAULT_TIME_LIMIT = 120.0
SLOW_TIME_LIMITS = {"2023/office_hijinks_400": 600.0, "2023/office_hijinks_500": 600.0}
CATEGORIES_2022 = {"algorithms": "Quantum Algorithms", "games": "Quantum Games",
                   "pennylane101": "PennyLane 101", "qchem": "Quantum Chemistry",
                   "qml": "Quantum Machine Learning"}

FEATURES: dict[str, Any] = {
    "id": "string", "year": "int32", "name": "string", "title": "string", "category": "string",
    "points": "int32", "points_source": "string", "statement": "string", "template": "string",
    "harness": "string", "driver": "string",
    "chunks": [{"kind": "string", "name": "string", "code": "string"}],
    "solution_functions": ["string"],
    "tests": [{"name": "string", "input": "string", "expected": "string"}],
    "tolerance": "string", "compare": "string", "time_limit": "float64",
    "time_limit_source": "string", "check_trust": "string", "format": "string", "pennylane_version": "string",
    "era_env": "string", "upstream_repo": "string", "upstream_commit": "string",
    "upstream_path": "string", "template_file": "string",
}


class SourceError(ValueError):
    """Upstream material that cannot be read; the message names the challenge and file."""


@dataclass
class _Row:
    year: str
    id: str
    points: str
    path: str
    pub: str
    tol: str
    time_limit: str


def parse_sources(text: str) -> tuple[dict[str, tuple[str, str]], list[_Row], dict[str, str]]:
    """SOURCES.md -> ({year: (repo, commit)}, per-challenge rows, {2024 id: theme})."""
    repos: dict[str, tuple[str, str]] = {}
    rows: list[_Row] = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] in YEARS and cells[1].startswith("http"):
            repos[cells[0]] = (cells[1], cells[2].strip("`"))
        elif len(cells) == 8 and cells[0] in YEARS and cells[1].startswith("`"):
            rows.append(_Row(cells[0], cells[1].strip("`"), cells[2], cells[3].strip("`"),
                             cells[5], cells[6], cells[7]))
    themes: dict[str, str] = {}
    m = re.search(r"2024 themes[^:]*:(.*)", text)
    if m:
        for part in m.group(1).split(";"):
            if "=" in part:
                theme, ids = part.split("=", 1)
                for cid in ids.split(","):
                    themes[cid.strip().rstrip(".")] = theme.strip()
    return repos, rows, themes


def _notebook_code(path: Path) -> str:
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = ["".join(c["source"]).rstrip() for c in nb["cells"] if c["cell_type"] == "code"]
    return "\n\n\n".join(c for c in cells if c.strip()) + "\n"


def _pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    pages = [p.extract_text() or "" for p in PdfReader(str(path)).pages]
    text = "\n\n".join(pages)
    for lig, rep in {"\ufb01": "fi", "\ufb02": "fl", "\ufb00": "ff", "\ufb03": "ffi"}.items():
        text = text.replace(lig, rep)
    return text.strip() + "\n"


def _tests_from_chunk(code: str, where: str) -> list[dict[str, str]]:
    try:
        value = ast.literal_eval(code.split("=", 1)[1].strip())
    except (ValueError, SyntaxError) as exc:
        raise SourceError(f"{where}: cannot read test_cases: {exc}") from exc
    return [{"name": f"test {i}", "input": str(inp), "expected": str(out)}
            for i, (inp, out) in enumerate(value)]


def trusted_compare(check_src: str) -> dict[str, Any] | None:
    """The numeric comparison inside ``check()`` that the parent can repeat, if there is one.

    Recognised: ``assert np.allclose(a, b, rtol=.., atol=..)`` (or ``isclose``) at the top of
    ``check``'s body, where ``a`` and ``b`` are ``json.loads`` of its two arguments.

    >>> trusted_compare('def check(s, e):\\n    s = json.loads(s)\\n    e = json.loads(e)\\n'
    ...                 '    assert np.allclose(s, e, rtol=1e-4)\\n')
    {'func': 'allclose', 'rtol': 0.0001, 'atol': 1e-08}
    """
    try:
        fn = _parse(check_src).body[0]
    except (SyntaxError, IndexError):
        return None
    if not isinstance(fn, ast.FunctionDef) or len(fn.args.args) < 2:
        return None
    params = [a.arg for a in fn.args.args[:2]]
    loaded: dict[str, str] = {}
    assigned: dict[str, int] = {}
    for node in ast.walk(fn):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        assigned[n.id] = assigned.get(n.id, 0) + 1
    for stmt in fn.body:
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call)
                and ast.unparse(stmt.value.func) == "json.loads" and len(stmt.value.args) == 1
                and isinstance(stmt.value.args[0], ast.Name)
                and stmt.value.args[0].id in params):
            loaded[stmt.targets[0].id] = stmt.value.args[0].id
    for stmt in fn.body:
        if not isinstance(stmt, ast.Assert) or not isinstance(stmt.test, ast.Call):
            continue
        call = stmt.test
        func = ast.unparse(call.func).split(".")[-1]
        if func not in ("allclose", "isclose") or len(call.args) < 2:
            continue
        a, b = call.args[:2]
        if not (isinstance(a, ast.Name) and isinstance(b, ast.Name)):
            continue
        if loaded.get(a.id) != params[0] or loaded.get(b.id) != params[1]:
            continue
        if assigned.get(a.id) != 1 or assigned.get(b.id) != 1:
            continue
        kw = {"rtol": 1e-5, "atol": 1e-8}
        for k in call.keywords:
            if k.arg in kw:
                try:
                    kw[k.arg] = float(ast.literal_eval(k.value))
                except (ValueError, SyntaxError):
                    return None
            else:
                return None
        if len(call.args) > 2:
            return None
        return {"func": func, **kw}
    return None


def _compare_2022(tol: str) -> dict[str, Any]:
    m = re.search(r"rel\s*([0-9.eE+-]+)", tol)
    if m:
        return {"func": "tokens", "rel": float(m.group(1))}
    m = re.search(r"accuracy\s*>\s*([0-9.]+)\s*%", tol)
    if m:
        return {"func": "accuracy", "min": float(m.group(1)) / 100}
    return {"func": "tokens", "rel": None}


def _seconds(text: str) -> float | None:
    m = re.search(r"([0-9.]+)\s*s\b", text)
    return float(m.group(1)) if m else None


def _title_2022(statement: str, cid: str) -> str:
    first = statement.strip().splitlines()[0] if statement.strip() else cid
    m = re.match(r"[^:]*:\s*(.*?)\s*\[\d+\s*points\]", first)
    return m.group(1) if m else first


def _human(name: str) -> str:
    return re.sub(r"[_-]+", " ", name).strip().capitalize()


def _record(src: Path, row: _Row, repos: dict, themes: dict) -> dict[str, Any]:
    folder = src / row.year / row.id
    where = f"qhack {row.year}/{row.id}"
    if not folder.is_dir():
        raise SourceError(f"{where}: folder {folder} is missing")
    repo, commit = repos.get(row.year, ("", ""))
    points_src = "QHackBench Table I (arXiv:2506.20008)" if row.points.endswith("*") else "upstream"
    try:
        points = int(row.points.rstrip("*"))
    except ValueError as exc:
        raise SourceError(f"{where}: points {row.points!r} is not a number") from exc
    if row.year == "2022":
        templates = sorted(folder.glob("*_template.py"))
        if len(templates) != 1 or not (folder / "problem.pdf").is_file():
            raise SourceError(f"{where}: expected one *_template.py and problem.pdf in {folder}")
        tfile = templates[0]
        template = tfile.read_text(encoding="utf-8")
        statement = _pdf_text(folder / "problem.pdf")
        title = _title_2022(statement, row.id)
        category = CATEGORIES_2022.get(row.id.split("_")[0], row.id.split("_")[0])
        ins = sorted(folder.glob("*.in"), key=lambda p: int(p.stem) if p.stem.isdigit() else 0)
        tests = []
        for p in ins:
            ans = p.with_suffix(".ans")
            if not ans.is_file():
                raise SourceError(f"{where}: {p.name} has no {ans.name}")
            tests.append({"name": p.stem, "input": p.read_text(encoding="utf-8"),
                          "expected": ans.read_text(encoding="utf-8")})
        compare = _compare_2022(row.tol)
        limit, limit_src = _seconds(row.time_limit), "contest (problem PDF)"
        fmt = "script"
    else:
        nbs = sorted(folder.glob("*.ipynb"))
        md = folder / ("README.md" if row.year == "2023" else "description.md")
        if len(nbs) != 1 or not md.is_file():
            raise SourceError(f"{where}: expected one notebook and {md.name} in {folder}")
        tfile = nbs[0]
        try:
            template = _notebook_code(tfile)
        except (ValueError, KeyError) as exc:
            raise SourceError(f"{where}: cannot read notebook {tfile.name}: {exc}") from exc
        statement = md.read_text(encoding="utf-8")
        if row.year == "2023":
            story = row.path.split("/")[0]
            category = _human(story).title()
            m = re.search(r"^#+\s*Tutorial\s*\\?#\s*\d+\s*[—-]\s*(.+)$", statement, re.MULTILINE)
            title = m.group(1).strip() if m else _human(tfile.stem)
        else:
            category = themes.get(row.id, "")
            title = _human(row.id)
        tests = []
        compare = None
        limit, limit_src = None, ""
        fmt = "notebook"
    chunks = split_template(template)
    if not any(c.kind == "editable" for c in chunks):
        raise SourceError(f"{where}: no editable part found in {tfile.name}")
    if fmt == "notebook":
        for c in chunks:
            if c.kind == "tests":
                tests = _tests_from_chunk(c.text, where)
            if c.kind == "check":
                compare = trusted_compare(c.text)
        if not any(c.kind == "run" for c in chunks) or not any(c.kind == "check" for c in chunks):
            raise SourceError(f"{where}: notebook {tfile.name} has no run()/check()")
    cid = f"{row.year}/{row.id}"
    if limit is None:
        limit = SLOW_TIME_LIMITS.get(cid, DEFAULT_TIME_LIMIT)
        limit_src = "qce default (no contest limit published)"
    expected_pub = int(row.pub) if row.pub.isdigit() else None
    if expected_pub is not None and expected_pub != len(tests):
        raise SourceError(f"{where}: SOURCES.md lists {expected_pub} public tests, found {len(tests)}")
    harness = "\n\n".join(c.text.rstrip() for c in chunks
                          if c.kind in ("import", "given", "run", "check")) + "\n"
    driver = "\n\n".join(c.text.rstrip() for c in chunks if c.kind == "driver") + "\n"
    record = {
        "id": cid, "year": int(row.year), "name": row.id, "title": title, "category": category,
        "points": points, "points_source": points_src, "statement": statement,
        "template": template, "harness": harness, "driver": driver,
        "chunks": [{"kind": c.kind, "name": c.name or "", "code": c.text} for c in chunks],
        "solution_functions": solution_names(chunks), "tests": tests, "tolerance": row.tol,
        "compare": json.dumps(compare) if compare else "", "time_limit": float(limit),
        "time_limit_source": limit_src, "format": fmt,
        "pennylane_version": ERA_PENNYLANE[row.year], "era_env": f"qhack-{row.year}",
        "upstream_repo": repo, "upstream_commit": commit, "upstream_path": row.path,
        "template_file": tfile.name,
    }
    record["check_trust"] = check_trust(record)
    return record


def records(source: str | Path) -> list[dict[str, Any]]:
    """All challenge records, in SOURCES.md order."""
    src = Path(source)
    sources = src / "SOURCES.md"
    if not sources.is_file():
        raise SourceError(f"{sources} not found: --source must be the upstream qhack folder")
    repos, rows, themes = parse_sources(sources.read_text(encoding="utf-8"))
    if not rows:
        raise SourceError(f"{sources}: no per-challenge table rows found")
    return [_record(src, row, repos, themes) for row in rows]


def _features():
    import datasets

    def conv(spec):
        if isinstance(spec, list):
            return [conv(spec[0])]
        if isinstance(spec, dict):
            return {k: conv(v) for k, v in spec.items()}
        return datasets.Value(spec)

    return datasets.Features({k: conv(v) for k, v in FEATURES.items()})


def card_yaml(counts: dict[str, int], sizes: dict[str, int] | None = None) -> str:
    """The YAML header of the dataset card (configs and dataset_info)."""

    feats = _features()._to_yaml_list()
    info = []
    for cfg in CONFIGS:
        split = {"name": SPLIT, "num_examples": counts.get(cfg, 0)}
        if sizes:
            split["num_bytes"] = sizes.get(cfg, 0)
        info.append({"config_name": cfg, "features": feats, "splits": [split]})
    header = {
        "pretty_name": "QHack 2022-2024 coding challenges",
        "language": ["en"], "license": "other", "task_categories": ["text-generation"],
        "tags": ["quantum-computing", "pennylane", "code-generation", "benchmark"],
        "configs": [{"config_name": cfg, "data_files": [
            {"split": SPLIT, "path": f"data/{cfg}/*.parquet"}], **({"default": True}
                                                                 if cfg == "all" else {})}
            for cfg in CONFIGS],
        "dataset_info": info,
    }
    return yaml_header(header)


def build(source: str | Path, out: str | Path, **options: Any) -> dict[str, Any]:
    """Write the dataset folder; returns a summary (counts per config, paths)."""
    import datasets

    if options:
        raise ValueError(f"qhack builder takes no options, got {sorted(options)}")
    if source is None:
        raise ValueError("qhack builder needs --source (the upstream qhack folder)")
    recs = records(source)
    out = Path(out)
    feats = _features()
    counts: dict[str, int] = {}
    sizes: dict[str, int] = {}
    for cfg in CONFIGS:
        rows = recs if cfg == "all" else [r for r in recs if str(r["year"]) == cfg]
        folder = out / "data" / cfg
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.parquet"):
            old.unlink()
        ds = datasets.Dataset.from_list(rows, features=feats)
        ds.to_parquet(str(folder / f"{SPLIT}-00000-of-00001.parquet"))
        counts[cfg] = len(rows)
        sizes[cfg] = int(ds.data.nbytes)
    (out / "README.md").write_text(card_yaml(counts, sizes) + card_body("qhack"), encoding="utf-8")
    return {"dataset": "qhack", "out": str(out), "counts": counts,
            "configs": list(CONFIGS), "split": SPLIT}
