"""Build the QHack 2022–2024 coding-challenge dataset from the three upstream repositories.

The repositories are read in their own layout, at the commits pinned in the shipped manifest
(``quantum_codegen_eval/data/manifests/qhack.json``)::

    XanaduAI/QHack2022                    Coding_Challenges/<id>/{problem.pdf, *_template.py, N.in, N.ans}
    XanaduAI/qhack_2023_coding_challenges <story>/<id>/{README.md, <name>.ipynb}
    XanaduAI/QHack2024-coding-challenges  <id>/{description.md, template.ipynb}

Every file read is checked against the manifest's git blob SHA-1. Facts upstream does not state in
machine-readable form (2022 tolerances and time limits from the PDFs, 2024 points and themes from
the QHackBench paper, calibrated CPU time limits, weak public checks) are manifest entries with
their source; ``python -m quantum_codegen_eval.loaders.qhack manifest --source DIR`` regenerates
the derivable ones from upstream (a test checks the shipped file against it).

The output is a Hub-ready folder: ``data/<config>/test-00000-of-00001.parquet`` for the configs
``all``, ``2022``, ``2023``, ``2024`` and a ``README.md`` card whose YAML declares them, so that
``datasets.load_dataset(out, "2023", split="test")`` works offline.

>>> summary = build("path/holding/the/three/repositories", "/tmp/qhack-ds")  # doctest: +SKIP
>>> summary["counts"]  # doctest: +SKIP
{'all': 74, '2022': 25, '2023': 28, '2024': 21}
"""

from __future__ import annotations

import ast
import io
import json
import math
import re
from pathlib import Path
from typing import Any

from quantum_codegen_eval import upstream
from quantum_codegen_eval.benchmarks.qhack import FEATURES as FEATURES  # the schema, re-exported
from quantum_codegen_eval.benchmarks.qhack import check_trust
from quantum_codegen_eval.benchmarks.qhack import features as _features
from quantum_codegen_eval.dataset_cards import card_body, yaml_header
from quantum_codegen_eval.formats.qhack_template import parse as _parse
from quantum_codegen_eval.formats.qhack_template import solution_names, split_template

YEARS = ("2022", "2023", "2024")
CONFIGS = ("all", *YEARS)
SPLIT = "test"
ERA_PENNYLANE = {"2022": "0.21.0", "2023": "0.28.0", "2024": "0.34.0"}
#: CPU seconds per test allowed per CPU second a known-good solution needed (see time_limit())
CPU_MULTIPLIER = 4.0
#: CPU seconds per test when there is neither a contest limit nor a known-good solution
DEFAULT_TIME_LIMIT = 120.0
#: the least CPU seconds per test where no contest limit was published (2022's usual limit)
MIN_TIME_LIMIT = 60.0
CATEGORIES_2022 = {"algorithms": "Quantum Algorithms", "games": "Quantum Games",
                   "pennylane101": "PennyLane 101", "qchem": "Quantum Chemistry",
                   "qml": "Quantum Machine Learning"}



class SourceError(ValueError):
    """Upstream material that cannot be read; the message names the challenge and file."""


def _notebook_code_text(text: str) -> str:
    nb = json.loads(text)
    cells = ["".join(c["source"]).rstrip() for c in nb["cells"] if c["cell_type"] == "code"]
    return "\n\n\n".join(c for c in cells if c.strip()) + "\n"


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader

    pages = [p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages]
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
    m = re.search(r"accuracy\s*>=?\s*([0-9.]+)\s*%", tol)
    if m:
        return {"func": "accuracy", "min": float(m.group(1)) / 100}
    return {"func": "tokens", "rel": None}


def _title_2022(statement: str, cid: str) -> str:
    first = statement.strip().splitlines()[0] if statement.strip() else cid
    m = re.match(r"[^:]*:\s*(.*?)\s*\[\d+\s*points\]", first)
    return m.group(1) if m else first


def _human(name: str) -> str:
    return re.sub(r"[_-]+", " ", name).strip().capitalize()


#: the three repositories at their pinned commits (keys are the years)
REPOSITORIES = {
    "2022": upstream.Repo("XanaduAI", "QHack2022", "44a658fba823f11540ef4f2412b6e5cff0573d8d"),
    "2023": upstream.Repo("XanaduAI", "qhack_2023_coding_challenges",
                          "efc516ac412dc351ae8bf9745e304717b81d1ff3"),
    "2024": upstream.Repo("XanaduAI", "QHack2024-coding-challenges",
                          "818cdd2b01fc8b06cb881247fdbf9ceba48e9f42"),
}
#: a file that identifies a local copy of each
PROBES = {"2022": "Coding_Challenges/requirements.txt",
          "2023": "tutorial_challenges/tutorial_1/README.md", "2024": "GHZ_inn/template.ipynb"}


def manifest() -> dict[str, Any]:
    """The shipped manifest (``quantum_codegen_eval/data/manifests/qhack.json``) as a dict."""
    return json.loads(upstream.manifest_path("qhack").read_text(encoding="utf-8"))


def time_limit(fact: dict[str, Any]) -> tuple[float, str]:
    """(CPU seconds per test, how it was obtained) for one manifest entry.

    ``CPU_MULTIPLIER`` times the CPU seconds per test of a known-good solution on the judging
    machine (``reference_cpu_s``), rounded up to 10 s, never below the contest's published limit
    (2022) or, where none was published, ``MIN_TIME_LIMIT``; without a measurement the contest's
    limit, else ``DEFAULT_TIME_LIMIT``.

    >>> time_limit({"contest_time_limit": 60.0, "reference_cpu_s": 2.1,
    ...             "reference_cpu_source": "a qce solution"})[0]
    60.0
    >>> time_limit({"contest_time_limit": None, "reference_cpu_s": 77,
    ...             "reference_cpu_source": "an accepted solution"})
    (310.0, '4x the CPU time of an accepted solution (77 s per test)')
    """
    contest, ref = fact.get("contest_time_limit"), fact.get("reference_cpu_s")
    src = fact.get("reference_cpu_source", "")
    if ref:
        scaled = float(math.ceil(CPU_MULTIPLIER * ref / 10) * 10)
        floor = contest or MIN_TIME_LIMIT
        if floor >= scaled:
            what = "contest limit (problem.pdf)" if contest else (
                f"qce minimum {MIN_TIME_LIMIT:g} s (no contest limit published)")
            return float(floor), (f"{what}, above {CPU_MULTIPLIER:g}x the CPU time of {src} "
                                  f"({ref:g} s per test)")
        return scaled, f"{CPU_MULTIPLIER:g}x the CPU time of {src} ({ref:g} s per test)"
    if contest:
        return float(contest), "contest limit (problem.pdf); no known-good solution measured"
    return DEFAULT_TIME_LIMIT, ("qce default (no contest limit published, no known-good "
                                "solution measured)")


def _record(tree: upstream.Tree, fact: dict[str, Any]) -> dict[str, Any]:
    year, name, cid = str(fact["year"]), fact["name"], fact["id"]
    where = f"qhack {cid}"
    base = fact["path"]
    try:
        files = {base + f: tree.read_bytes(base + f) for f in fact["files"]}
    except upstream.UpstreamError as exc:
        raise SourceError(f"{where}: {exc}") from exc

    def text(rel: str) -> str:
        if rel not in files:
            raise SourceError(f"{where}: {rel} is not among the challenge's files")
        return files[rel].decode("utf-8")

    tfile = fact["template_file"]
    if fact["format"] == "script":
        template = text(tfile)
        statement = _pdf_text(files[base + "problem.pdf"])
        title = _title_2022(statement, name)
        tests = []
        for rel in files:
            stem = rel[len(base):]
            if stem.endswith(".in"):
                ans = rel[:-3] + ".ans"
                if ans not in files:
                    raise SourceError(f"{where}: {stem} has no .ans")
                tests.append({"name": stem[:-3], "input": files[rel].decode("utf-8"),
                              "expected": files[ans].decode("utf-8")})
        tests.sort(key=lambda t: int(t["name"]) if t["name"].isdigit() else 0)
        compare: dict[str, Any] | None = _compare_2022(fact["tolerance"])
    else:
        try:
            template = _notebook_code_text(text(tfile))
        except (ValueError, KeyError) as exc:
            raise SourceError(f"{where}: cannot read notebook {tfile}: {exc}") from exc
        statement = text(fact["statement_file"])
        if year == "2023":
            m = re.search(r"^#+\s*Tutorial\s*\\?#\s*\d+\s*[—-]\s*(.+)$", statement, re.MULTILINE)
            title = m.group(1).strip() if m else _human(Path(tfile).stem)
        else:
            title = _human(name)
        tests, compare = [], None
    chunks = split_template(template)
    if not any(c.kind == "editable" for c in chunks):
        raise SourceError(f"{where}: no editable part found in {tfile}")
    if fact["format"] == "notebook":
        for c in chunks:
            if c.kind == "tests":
                tests = _tests_from_chunk(c.text, where)
            if c.kind == "check":
                compare = trusted_compare(c.text)
        if not any(c.kind == "run" for c in chunks) or not any(c.kind == "check" for c in chunks):
            raise SourceError(f"{where}: notebook {tfile} has no run()/check()")
    if fact.get("public_tests") is not None and fact["public_tests"] != len(tests):
        raise SourceError(f"{where}: the manifest lists {fact['public_tests']} public tests, "
                          f"found {len(tests)}")
    harness = "\n\n".join(c.text.rstrip() for c in chunks
                          if c.kind in ("import", "given", "run", "check")) + "\n"
    driver = "\n\n".join(c.text.rstrip() for c in chunks if c.kind == "driver") + "\n"
    record = {
        "id": cid, "year": int(year), "name": name, "title": title,
        "category": fact["category"], "points": int(fact["points"]),
        "points_source": fact["points_source"], "statement": statement,
        "template": template, "harness": harness, "driver": driver,
        "chunks": [{"kind": c.kind, "name": c.name or "", "code": c.text} for c in chunks],
        "solution_functions": solution_names(chunks), "tests": tests,
        "tolerance": fact["tolerance"], "compare": json.dumps(compare) if compare else "",
        "time_limit": time_limit(fact)[0], "time_limit_source": time_limit(fact)[1],
        "contest_time_limit": fact.get("contest_time_limit"),
        "weak_check": fact.get("weak_check", ""),
        "format": fact["format"], "pennylane_version": ERA_PENNYLANE[year],
        "era_env": f"qhack-{year}", "upstream_repo": f"https://github.com/{tree.repo.slug}",
        "upstream_commit": tree.commit, "upstream_path": base, "template_file": Path(tfile).name,
    }
    record["check_trust"] = check_trust(record)
    return record


def records(source: Any = None, *, github_url: str | None = None,
            progress: bool = True) -> list[dict[str, Any]]:
    """All challenge records, in manifest order, read from the upstream repositories (``source``
    None: downloaded at the pinned commits) through verified trees."""
    man = upstream.load_manifest("qhack")
    try:
        with upstream.open_trees(man, source, github_url=github_url, progress=progress) as trees:
            return [_record(trees[f["repository"]], f) for f in man.problems]
    except upstream.UpstreamError as exc:
        if isinstance(exc, upstream.DownloadError):
            raise
        raise SourceError(str(exc)) from exc


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
        "language": ["en"], "license": "unknown", "task_categories": ["text-generation"],
        "tags": ["quantum-computing", "pennylane", "code-generation", "benchmark"],
        "configs": [{"config_name": cfg, "data_files": [
            {"split": SPLIT, "path": f"data/{cfg}/*.parquet"}], **({"default": True}
                                                                 if cfg == "all" else {})}
            for cfg in CONFIGS],
        "dataset_info": info,
    }
    return yaml_header(header)


def build(source: Any, out: str | Path, *, github_url: str | None = None, progress: bool = True,
          **options: Any) -> dict[str, Any]:
    """Write the dataset folder; returns a summary (counts per config, paths).

    ``source``: None (download the three repositories at their pinned commits), or a local copy:
    a folder holding them (checkouts, unpacked archives or ``.tar.gz`` files)."""
    import datasets

    if options:
        raise ValueError(f"qhack builder takes no options, got {sorted(options)}")
    recs = records(source, github_url=github_url, progress=progress)
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


# -- the manifest: derived from upstream, hand facts kept -------------------------------------

#: facts upstream does not state in machine-readable form; kept from the shipped manifest when it
#: is regenerated (each with its ``*_source``)
HAND_FACTS = ("points", "points_source", "category", "category_source", "reference_cpu_s",
              "reference_cpu_source", "weak_check")


def _pdf_specs(text: str) -> tuple[str, float | None]:
    """(tolerance as written, time limit in s) from a 2022 PDF's Specs section."""
    tol = "none in PDF (exact match)"
    m = re.search(r"Tolerance:\s*(≥|>=)?\s*([0-9.eE+-]+)\s*(%)?", text)
    if m and m.group(3):
        tol = f"accuracy >= {m.group(2)}% (PDF)"
    elif m:
        tol = f"rel {m.group(2)}"
    m = re.search(r"Time limit:\s*([0-9.]+)\s*s\b", text)
    return tol, float(m.group(1)) if m else None


def _folders(year: str, tree: upstream.Tree) -> list[str]:
    if year == "2022":
        found = {p.split("/")[1] for p in tree.glob("Coding_Challenges/*/problem.pdf")}
        return [f"Coding_Challenges/{n}/" for n in sorted(found)]
    if year == "2023":
        return sorted(p.rsplit("/", 1)[0] + "/" for p in tree.glob("*/*/README.md")
                      if p.count("/") == 2)
    return sorted((p.rsplit("/", 1)[0] + "/" for p in tree.glob("*/template.ipynb")
                   if p.count("/") == 1), key=str.lower)


def manifest_entries(trees: dict[str, upstream.Tree]) -> list[dict[str, Any]]:
    """Per-challenge facts read from the repositories (``loaders/make_manifest.py`` calls this):
    paths and files, 2022 points/category from the folder name and tolerance/time limit from the
    PDF, 2023 points/story from the folders, the comparison in ``check()``, public test counts.
    The hand facts (``HAND_FACTS``: 2024 points and themes, reference CPU times, weak checks) are
    kept from the shipped manifest."""
    try:
        old = {p["id"]: p for p in manifest().get("problems", [])}
    except (OSError, ValueError, KeyError):
        old = {}
    # the contest's pins (the 2022 era environment installs them)
    trees["2022"].read_text("Coding_Challenges/requirements.txt")
    out = []
    for year, tree in trees.items():
        for folder in _folders(year, tree):
            name = folder.rstrip("/").split("/")[-1]
            cid = f"{year}/{name}"
            keep = {k: v for k, v in old.get(cid, {}).items() if k in HAND_FACTS}
            listed = [p for p in tree.glob(folder + "*") if "/images/" not in p[len(folder) - 1:]]
            entry: dict[str, Any] = {"id": cid, "repository": year, "path": folder,
                                     "year": int(year), "name": name,
                                     "files": [p[len(folder):] for p in listed]}
            if year == "2022":
                tfile = next(p for p in listed if p.endswith("_template.py"))
                tree.read_bytes(tfile)
                for p in listed:
                    if p.endswith((".in", ".ans")):
                        tree.read_bytes(p)
                tol, limit = _pdf_specs(_pdf_text(tree.read_bytes(folder + "problem.pdf")))
                prefix, points = name.split("_")[:2]
                entry.update({
                    "format": "script", "template_file": tfile,
                    "public_tests": sum(p.endswith(".in") for p in listed),
                    "points": int(points), "points_source": "upstream folder name",
                    "category": CATEGORIES_2022.get(prefix, prefix),
                    "category_source": "upstream folder name",
                    "tolerance": tol, "tolerance_source": "problem.pdf (Specs)",
                    "contest_time_limit": limit,
                    "contest_time_limit_source": "problem.pdf (Specs)",
                })
            else:
                tfile = next(p for p in listed if p.endswith(".ipynb"))
                stmt = folder + ("README.md" if year == "2023" else "description.md")
                tree.read_bytes(stmt)
                chunks = split_template(_notebook_code_text(tree.read_text(tfile)))
                tests = [c for c in chunks if c.kind == "tests"]
                checks = [trusted_compare(c.text) for c in chunks if c.kind == "check"]
                cmp = checks[0] if checks else None
                entry.update({
                    "format": "notebook", "template_file": tfile, "statement_file": stmt,
                    "public_tests": len(_tests_from_chunk(tests[0].text, cid)) if tests else 0,
                    "tolerance": (f"{cmp['func']}: rtol={cmp['rtol']:g}, atol={cmp['atol']:g}"
                                  if cmp else "see check()"),
                    "tolerance_source": "check() in the notebook",
                    "contest_time_limit": None, "contest_time_limit_source": "none published",
                })
                if year == "2023":
                    tutorial = folder.startswith("tutorial_challenges/")
                    entry.update({"points": 0 if tutorial else int(name.rsplit("_", 1)[1]),
                                  "points_source": "upstream README (tutorials: zero points)"
                                  if tutorial else "upstream folder name",
                                  "category": _human(folder.split("/")[0]).title(),
                                  "category_source": "upstream story folder"})
            entry["files"] = [p[len(folder):] for p in listed if p in tree.reads]
            for key, value in keep.items():
                entry.setdefault(key, value)
            out.append({k: entry[k] for k in sorted(entry)})
    return out
