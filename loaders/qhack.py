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
import hashlib
import io
import json
import math
import re
import tarfile
from importlib import resources
from pathlib import Path
from typing import Any

from quantum_codegen_eval.dataset_cards import card_body, yaml_header
from quantum_codegen_eval.judges.qhack_template import parse as _parse
from quantum_codegen_eval.judges.qhack_template import solution_names, split_template

YEARS = ("2022", "2023", "2024")
CONFIGS = ("all", *YEARS)
SPLIT = "test"
ERA_PENNYLANE = {"2022": "0.21.0", "2023": "0.28.0", "2024": "0.34.0"}
#: the shipped fact table, relative to the package
MANIFEST = "data/manifests/qhack.json"
#: CPU seconds per test allowed per CPU second a known-good solution needed (see time_limit())
CPU_MULTIPLIER = 4.0
#: CPU seconds per test when there is neither a contest limit nor a known-good solution
DEFAULT_TIME_LIMIT = 120.0
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
    "time_limit_source": "string", "contest_time_limit": "float64", "weak_check": "string", "format": "string", "pennylane_version": "string",
    "era_env": "string", "upstream_repo": "string", "upstream_commit": "string",
    "upstream_path": "string", "template_file": "string",
}


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


def blob_sha1(data: bytes) -> str:
    """The git blob SHA-1 of ``data`` (what ``git hash-object`` prints)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def manifest() -> dict[str, Any]:
    """The shipped fact table (``quantum_codegen_eval/data/manifests/qhack.json``)."""
    text = resources.files("quantum_codegen_eval").joinpath(MANIFEST).read_text(encoding="utf-8")
    return json.loads(text)


def unpack(archive: str | Path, dest: str | Path) -> None:
    """Unpack a source archive; members escaping ``dest`` or links are refused."""
    dest = Path(dest).resolve()
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="data")
            return
        for m in tar.getmembers():
            target = (dest / m.name).resolve()
            if not (m.isfile() or m.isdir()) or not target.is_relative_to(dest):
                continue
            tar.extract(m, dest)


def _is_root(folder: Path, repo: dict[str, Any]) -> bool:
    return (folder / repo["marker"]).exists()


def locate(source: str | Path, man: dict[str, Any] | None = None) -> dict[str, Path]:
    """{year: repository root} found in ``source``: one repository (checkout or unpacked archive),
    a folder holding several, or a ``.tar.gz`` archive of one."""
    man = man or manifest()
    src = Path(source)
    if src.is_file() and src.name.endswith((".tar.gz", ".tgz")) or (
            src.is_file() and tarfile.is_tarfile(src)):
        import tempfile

        tmp = Path(tempfile.mkdtemp(prefix="qce-qhack-"))
        unpack(src, tmp)
        src = tmp
    if not src.is_dir():
        raise SourceError(f"{source}: not a folder or .tar.gz archive")
    candidates = [src, *sorted(p for p in src.iterdir() if p.is_dir())]
    roots: dict[str, Path] = {}
    for year, repo in man["repositories"].items():
        for cand in candidates:
            if _is_root(cand, repo):
                roots[year] = cand
                break
    if not roots:
        names = ", ".join(r["repo"] for r in man["repositories"].values())
        raise SourceError(f"{source}: none of the QHack repositories ({names}) found there")
    return roots


def _read(root: Path, rel: str, want: str | None, where: str) -> bytes:
    path = root / rel
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"{where}: cannot read {rel} ({exc.strerror or exc})") from exc
    if want and blob_sha1(data) != want:
        raise SourceError(f"{where}: {rel} differs from the pinned upstream file "
                          f"(blob {blob_sha1(data)[:12]}, manifest {want[:12]})")
    return data


def time_limit(fact: dict[str, Any]) -> tuple[float, str]:
    """(CPU seconds per test, how it was obtained) for one manifest entry.

    ``CPU_MULTIPLIER`` times the CPU time per test of a known-good solution on the judging
    machine (``reference_cpu_s``), rounded up to 10 s, never below the contest's published limit;
    the contest's limit alone when nothing was measured; else ``DEFAULT_TIME_LIMIT``.

    >>> time_limit({"contest_time_limit": 60.0, "reference_cpu_s": 2.1,
    ...             "reference_cpu_source": "qce solution"})
    (60.0, 'contest limit (problem.pdf), above 4x the CPU time of qce solution (2.1 s)')
    """
    contest, ref = fact.get("contest_time_limit"), fact.get("reference_cpu_s")
    src = fact.get("reference_cpu_source", "")
    if ref:
        scaled = float(math.ceil(CPU_MULTIPLIER * ref / 10) * 10)
        if contest and contest >= scaled:
            return float(contest), (f"contest limit (problem.pdf), above {CPU_MULTIPLIER:g}x the "
                                    f"CPU time of {src} ({ref:g} s)")
        return scaled, f"{CPU_MULTIPLIER:g}x the CPU time of {src} ({ref:g} s per test)"
    if contest:
        return float(contest), "contest limit (problem.pdf); no known-good solution measured"
    return DEFAULT_TIME_LIMIT, ("qce default (no contest limit published, no known-good "
                                "solution measured)")


def _record(root: Path, fact: dict[str, Any], repo: dict[str, Any]) -> dict[str, Any]:
    year, name, cid = str(fact["year"]), fact["name"], fact["id"]
    where = f"qhack {cid}"
    base = fact["upstream_path"]
    if not (root / base).is_dir():
        raise SourceError(f"{where}: folder {base} is missing in {root}")
    files = {rel: _read(root, rel, sha, where) for rel, sha in fact["files"].items()}

    def text(rel: str) -> str:
        if rel not in files:
            raise SourceError(f"{where}: the manifest lists no hash for {rel}")
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
    return {
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
        "era_env": f"qhack-{year}", "upstream_repo": f"https://github.com/{repo['repo']}",
        "upstream_commit": repo["commit"], "upstream_path": base, "template_file": Path(tfile).name,
    }


def records(source: str | Path) -> list[dict[str, Any]]:
    """All challenge records, in manifest order, read from the upstream repositories."""
    man = manifest()
    roots = locate(source, man)
    missing = [man["repositories"][y]["repo"] for y in man["repositories"] if y not in roots]
    if missing:
        raise SourceError(f"{source}: repository {', '.join(missing)} not found there "
                          "(QHack needs all three)")
    return [_record(roots[str(f["year"])], f, man["repositories"][str(f["year"])])
            for f in man["challenges"]]


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
    """Write the dataset folder; returns a summary (counts per config, paths).

    ``source``: a folder holding the three upstream repositories (checkouts or unpacked archives),
    one of them, or a ``.tar.gz``."""
    import datasets

    if options:
        raise ValueError(f"qhack builder takes no options, got {sorted(options)}")
    if source is None:
        raise ValueError("qhack builder needs --source (a folder holding the three QHack "
                         "repositories)")
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


# -- the manifest: derived from upstream, hand facts kept -------------------------------------

#: derivable from upstream; everything else in an entry is a hand fact kept across regenerations
DERIVED = ("id", "year", "name", "upstream_path", "files", "format", "template_file",
           "statement_file", "public_tests")


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


def _git_files(root: Path, folder: str) -> dict[str, str]:
    out = {}
    for p in sorted((root / folder).rglob("*")):
        if p.is_file() and "images" not in p.relative_to(root / folder).parts:
            out[p.relative_to(root).as_posix()] = blob_sha1(p.read_bytes())
    return out


def derive_manifest(source: str | Path, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    """The manifest regenerated from upstream: derivable fields recomputed (paths, file hashes,
    2022 points/category/tolerance/time limit, 2023 points/story, public test counts), hand facts
    taken from ``previous`` (default: the shipped manifest)."""
    prev = previous or manifest()
    roots = locate(source, prev)
    old = {f["id"]: f for f in prev["challenges"]}
    out = []
    for year in prev["repositories"]:
        root = roots[year]
        if year == "2022":
            folders = sorted(p.relative_to(root).as_posix() + "/"
                             for p in (root / "Coding_Challenges").iterdir() if p.is_dir())
        elif year == "2023":
            folders = sorted(p.parent.relative_to(root).as_posix() + "/"
                             for p in root.glob("*/*/README.md"))
        else:
            folders = sorted((p.parent.relative_to(root).as_posix() + "/"
                              for p in root.glob("*/template.ipynb")), key=str.lower)
        for folder in folders:
            name = folder.rstrip("/").split("/")[-1]
            cid = f"{year}/{name}"
            entry: dict[str, Any] = dict(old.get(cid, {}))
            files = _git_files(root, folder)
            entry.update({"id": cid, "year": int(year), "name": name, "upstream_path": folder,
                          "files": files})
            if year == "2022":
                tfile = next(f for f in files if f.endswith("_template.py"))
                tol, limit = _pdf_specs(_pdf_text((root / folder / "problem.pdf").read_bytes()))
                prefix, points = name.split("_")[:2]
                entry.update({
                    "format": "script", "template_file": tfile, "statement_file": folder
                    + "problem.pdf", "public_tests": sum(f.endswith(".in") for f in files),
                    "points": int(points), "points_source": "upstream folder name",
                    "category": CATEGORIES_2022.get(prefix, prefix),
                    "category_source": "upstream folder name",
                    "tolerance": tol, "tolerance_source": "problem.pdf (Specs)",
                    "contest_time_limit": limit, "contest_time_limit_source": "problem.pdf (Specs)",
                })
            else:
                tfile = next(f for f in files if f.endswith(".ipynb"))
                chunks = split_template(_notebook_code_text((root / tfile).read_text("utf-8")))
                tests = [c for c in chunks if c.kind == "tests"]
                checks = [trusted_compare(c.text) for c in chunks if c.kind == "check"]
                cmp = checks[0] if checks else None
                tol = (f"{cmp['func']}: rtol={cmp['rtol']:g}, atol={cmp['atol']:g}" if cmp
                       else "see check()")
                entry.update({
                    "format": "notebook", "template_file": tfile,
                    "statement_file": folder + ("README.md" if year == "2023"
                                                else "description.md"),
                    "public_tests": len(_tests_from_chunk(tests[0].text, cid)) if tests else 0,
                    "contest_time_limit": None,
                    "contest_time_limit_source": "none published",
                    "tolerance": tol, "tolerance_source": "check() in the notebook",
                })
                if year == "2023":
                    tutorial = folder.startswith("tutorial_challenges/")
                    entry.update({"points": 0 if tutorial else int(name.rsplit("_", 1)[1]),
                                  "points_source": "upstream README (tutorials: zero points)"
                                  if tutorial else "upstream folder name",
                                  "category": _human(folder.split("/")[0]).title(),
                                  "category_source": "upstream story folder"})
            out.append({k: entry[k] for k in sorted(entry)})
    return {**{k: v for k, v in prev.items() if k != "challenges"}, "challenges": out}


def _main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m quantum_codegen_eval.loaders.qhack")
    ap.add_argument("action", choices=["manifest"], help="regenerate the manifest from upstream")
    ap.add_argument("--source", required=True, help="folder holding the three repositories")
    ap.add_argument("--out", help="write here (default: print)")
    args = ap.parse_args(argv)
    text = json.dumps(derive_manifest(args.source), indent=1, ensure_ascii=False) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
