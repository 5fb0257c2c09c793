"""Build the PennyLane API index shipped in ``quantum_codegen_eval/metrics/data/``.

The index lists every public name reachable from ``pennylane`` (module attributes, public
submodules recursively, and the public attributes of PennyLane's classes), for several
PennyLane releases, so that :func:`quantum_codegen_eval.metrics.hallucination.find_hallucinations`
needs no PennyLane installed.

Each release is walked inside its own virtual environment (``cache_dir("api-index-envs")``,
see ``quantum_codegen_eval.cache``), created here from the pins in :data:`RECIPES`; the
PennyLane installed in the running interpreter is walked in-process (``--option current=none``
leaves it out)::

    qce build pennylane_api_index --out src/quantum_codegen_eval/metrics/data/pennylane_api_index.json.xz
    qce build pennylane_api_index --out idx.json.xz --option versions=0.34.0,0.45.1

A *supplement* read statically from each release's files (its wheel, or the installed
package) adds what importing cannot see: names served lazily by a module ``__getattr__``,
modules whose import needs an optional dependency, private names and the shipped device names
(:func:`scan_release`, :func:`combine_supplement`; ``--option mode=supplement`` recomputes only
it, keeping the walks)::

    qce build pennylane_api_index --out src/quantum_codegen_eval/metrics/data/pennylane_api_index.json.xz --option mode=supplement

This file is also run as a script by the interpreters of those environments
(``python pennylane_api_index.py --walk OUT.json``); the walker therefore uses the standard
library only and works on Python 3.10+ with any PennyLane from 0.21 on.
"""

from __future__ import annotations

import inspect
import json
import lzma
import os
import pkgutil
import subprocess
import sys
import time
import types
import warnings
from pathlib import Path

FORMAT = "qce-pennylane-api-index/1"

#: PennyLane release -> pip requirements that install on Python 3.11.
#: numpy 1.20/1.21 have no 3.11 wheels; newer autograd breaks old PennyLane imports; autoray
#: >= 0.7 and scipy >= 1.13 break 0.34's imports.
RECIPES: dict[str, tuple[str, ...]] = {
    "0.21.0": ("pennylane==0.21.0", "pennylane-lightning==0.21.0", "numpy==1.26.4",
               "scipy==1.11.4", "autograd==1.5", "autoray==0.2.5", "networkx==2.8.8",
               "retworkx==0.13.2", "semantic_version==2.6.0", "toml", "appdirs", "cachetools"),
    "0.24.0": ("pennylane==0.24.0", "pennylane-lightning==0.24.0", "numpy==1.23.5",
               "scipy==1.10.1", "autograd==1.5", "autoray==0.3.1", "networkx==2.8.8",
               "retworkx==0.13.2", "semantic_version==2.6.0", "toml", "appdirs", "cachetools"),
    "0.28.0": ("pennylane==0.28.0", "pennylane-lightning==0.28.0", "numpy==1.23.5",
               "scipy==1.10.1", "autograd==1.5", "autoray==0.3.1", "networkx==2.8.8",
               "retworkx==0.13.2", "semantic_version==2.10.0", "toml", "appdirs", "cachetools",
               "requests"),
    "0.31.0": ("pennylane==0.31.0", "pennylane-lightning==0.31.0", "numpy==1.23.5",
               "scipy==1.10.0", "autograd==1.5", "autoray==0.6.3", "networkx", "rustworkx",
               "semantic_version", "toml", "appdirs", "cachetools", "requests"),
    "0.34.0": ("pennylane==0.34.0", "pennylane-lightning==0.34.0", "numpy<2", "scipy<1.13",
               "autograd==1.6.2", "autoray<0.7", "networkx", "rustworkx", "semantic_version",
               "toml", "appdirs", "cachetools", "requests"),
    "0.37.0": ("pennylane==0.37.0", "pennylane-lightning==0.37.0", "numpy<2", "scipy<1.14",
               "autoray==0.6.12", "autograd", "networkx", "rustworkx"),
    # autoray 0.8 dropped NumpyMimic, which qml.math of 0.40-0.42 subclasses
    "0.40.0": ("pennylane==0.40.0", "pennylane-lightning==0.40.0", "numpy<2.1", "scipy<1.15",
               "autoray==0.7.2"),
    "0.42.0": ("pennylane==0.42.0", "pennylane-lightning==0.42.0", "autoray==0.7.2"),
}

_SKIP_SUBMODULE_PARTS = {"tests", "conftest"}


# --------------------------------------------------------------------------------------------
# The walker (runs inside the environment of the PennyLane release being indexed)
# --------------------------------------------------------------------------------------------

def _public(name: str) -> bool:
    return not name.startswith("_")


def _import_submodules(errors: list[str]) -> None:
    """Import every public submodule so that lazily attached ones become reachable."""
    import pennylane

    for info in pkgutil.walk_packages(pennylane.__path__, "pennylane.", onerror=lambda n: None):
        parts = info.name.split(".")[1:]
        if not all(_public(p) for p in parts) or _SKIP_SUBMODULE_PARTS & set(parts):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                __import__(info.name)
        except BaseException as exc:  # noqa: BLE001 -- optional extras (openfermion, jax, ...)
            errors.append(f"{info.name}: {type(exc).__name__}: {exc}"[:300])


def _kind(obj: object) -> str:
    if isinstance(obj, types.ModuleType):
        return "module" if obj.__name__.split(".")[0] == "pennylane" else "external"
    if inspect.isclass(obj):
        return "class" if (getattr(obj, "__module__", "") or "").startswith("pennylane") else "other"
    return "other"


def _public_dir(obj: object) -> list[str]:
    try:
        found = set(dir(obj))
        if isinstance(obj, types.ModuleType):
            # a module-level __dir__ (PennyLane 0.21) may hide the real attributes
            found |= set(vars(obj))
            found |= _lazy_names(obj)
    except Exception:  # noqa: BLE001 -- exotic metaclasses, broken lazy modules
        return []
    return sorted(n for n in found if isinstance(n, str) and _public(n))


def _lazy_names(mod: types.ModuleType) -> set[str]:
    """Names a module-level ``__getattr__`` serves (``qml.Hamiltonian`` in 0.36-0.39): the
    string literals in its source that are identifiers and that ``getattr`` then resolves."""
    import ast

    fn = vars(mod).get("__getattr__")
    if not callable(fn):
        return set()
    try:
        tree = ast.parse(inspect.cleandoc("\n" + inspect.getsource(fn)))
    except Exception:  # noqa: BLE001 -- no source (C, zip), odd indentation
        return set()
    out = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and node.value.isidentifier() and _public(node.value)):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    getattr(mod, node.value)
            except BaseException:  # noqa: BLE001 -- removed names that raise on access
                continue
            out.add(node.value)
    return out


def walk(import_submodules: bool = True) -> dict:
    """Every public name reachable from ``pennylane`` in this interpreter.

    Breadth first from ``pennylane``: each PennyLane module and class is listed once, at the
    first (shortest) path that reaches it, its *home*; any other path to the same object is an
    alias to the home (``pennylane.ops.RX`` -> ``pennylane.RX``), which keeps cycles such as
    ``import pennylane as qml`` inside a submodule from expanding. Returns::

        {"version": "0.45.1",
         "names": {dotted: kind},        # module | class | attr | other | external
         "aliases": {dotted: home},      # paths to a module or class listed elsewhere
         "external": {module: [attrs]},  # other packages' modules reached (numpy, autograd ...)
         "fallbacks": {module: "ext:numpy"},  # modules whose __getattr__ forwards to numpy
         "errors": [...]}                # submodules that failed to import (optional extras)

    ``external`` names (e.g. ``pennylane.numpy.linalg``) alias ``ext:<module name>``.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pennylane
    errors: list[str] = []
    if import_submodules:
        _import_submodules(errors)
    names: dict[str, str] = {"pennylane": "module"}
    aliases: dict[str, str] = {}
    external: dict[str, list[str]] = {}
    fallbacks: dict[str, str] = {}
    home: dict[int, str] = {id(pennylane): "pennylane"}
    keep_alive: list[object] = [pennylane]  # ids stay unique while the objects live
    queue: list[tuple[str, types.ModuleType]] = [("pennylane", pennylane)]
    head = 0
    while head < len(queue):
        path, mod = queue[head]
        head += 1
        for attr in _public_dir(mod):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    obj = getattr(mod, attr)
            except BaseException:  # noqa: BLE001 -- lazy attributes whose import fails
                continue
            full = f"{path}.{attr}"
            kind = _kind(obj)
            if kind == "other":
                names[full] = kind
                continue
            if kind == "external":
                names[full] = kind
                ext = obj.__name__
                aliases[full] = f"ext:{ext}"
                if ext not in external:
                    external[ext] = _public_dir(obj)
                continue
            if id(obj) in home:
                names[full] = kind
                aliases[full] = home[id(obj)]
                continue
            home[id(obj)] = full
            keep_alive.append(obj)
            names[full] = kind
            if kind == "module":
                queue.append((full, obj))
                if _numpy_fallback(obj):
                    fallbacks[full] = "ext:numpy"
            else:
                for a in _public_dir(obj):
                    names[f"{full}.{a}"] = "attr"
    if fallbacks:
        import numpy

        external.setdefault("numpy", _public_dir(numpy))
    return {"version": pennylane.__version__, "names": names, "aliases": aliases,
            "external": external, "fallbacks": fallbacks, "errors": sorted(set(errors)),
            "packages": _package_versions()}


def _package_versions() -> dict[str, str]:
    from importlib import metadata

    out = {}
    for dist in ("pennylane", "pennylane-lightning", "numpy", "scipy", "autograd", "autoray"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    return out


def _numpy_fallback(mod: types.ModuleType) -> bool:
    """Whether a module-level ``__getattr__`` forwards names to numpy (``qml.math`` through
    autoray, which answers *any* name lazily, so unknown names are checked against numpy)."""
    if "__getattr__" not in vars(mod) or "arctan2" in vars(mod):
        return False
    try:
        mod.arctan2  # noqa: B018
    except BaseException:  # noqa: BLE001
        return False
    return True


# --------------------------------------------------------------------------------------------
# Environments and the combined index
# --------------------------------------------------------------------------------------------

def cache_dir() -> Path:
    """Where the per-release environments live: ``cache_dir("api-index-envs")`` of the package."""
    from quantum_codegen_eval.cache import cache_dir as qce_cache_dir

    return qce_cache_dir("api-index-envs")


def ensure_env(version: str) -> Path:
    """Create (or reuse) the environment for PennyLane ``version``; returns its python."""
    # imported here: this file also runs as a plain script inside the old-release venvs
    from quantum_codegen_eval.execution.envs import run_logged
    from quantum_codegen_eval.execution.envs import running_python as base_python

    if version not in RECIPES:
        raise ValueError(f"no recipe for PennyLane {version}; known: {', '.join(RECIPES)}")
    folder = cache_dir() / f"pennylane-{version}"
    py = folder / "bin" / "python"
    stamp = folder / "qce-recipe.json"
    reqs = list(RECIPES[version])
    if stamp.is_file() and py.exists() and json.loads(stamp.read_text()) == reqs:
        return py
    folder.parent.mkdir(parents=True, exist_ok=True)
    log = folder.parent / f"pennylane-{version}.log"
    log.write_text("")
    if not py.exists():
        run_logged([base_python(), "-m", "venv", str(folder)], log)
    run_logged([str(py), "-m", "pip", "install", "--disable-pip-version-check", "--no-input", *reqs], log)
    stamp.write_text(json.dumps(reqs))
    return py


def walk_in(python: str | Path) -> dict:
    """Run :func:`walk` in another interpreter and return its result."""
    out = cache_dir() / f"walk-{os.getpid()}-{time.time_ns()}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        proc = subprocess.run([str(python), __file__, "--walk", str(out)], capture_output=True,
                              text=True, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"walking PennyLane with {python} failed:\n{proc.stderr[-2000:]}")
        return json.loads(out.read_text())
    finally:
        out.unlink(missing_ok=True)


def _vkey(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split(".")[:3] if p.isdigit())


def combine(walks: list[dict], built_with: dict) -> dict:
    """Merge per-release walks into the shipped format.

    * ``versions``: the indexed releases, oldest first; bit ``i`` of every mask below is set
      when the name exists in ``versions[i]``.
    * ``tree``: a trie of dotted names below ``pennylane``: component -> ``[mask, kind]`` or
      ``[mask, kind, children]``; ``kind`` is the one in the newest release that has the name.
    * ``aliases``: dotted path -> {home path or ``ext:<module>``: mask}.
    * ``external``: module of another package -> {public attribute: mask}.
    * ``fallbacks``: module path -> {``ext:<module>``: mask}: where a missing attribute is
      looked up instead (``pennylane.math`` forwards unknown names to numpy through autoray).
    """
    walks = sorted(walks, key=lambda w: _vkey(w["version"]))
    versions = [w["version"] for w in walks]
    if len(set(versions)) != len(versions):
        raise ValueError(f"duplicate PennyLane versions in the index: {versions}")
    root: dict = {}
    aliases: dict[str, dict[str, int]] = {}
    external: dict[str, dict[str, int]] = {}
    fallbacks: dict[str, dict[str, int]] = {}
    for bit, w in enumerate(walks):
        for name, kind in w["names"].items():
            parts = name.split(".")
            if parts[0] != "pennylane":
                raise ValueError(f"walk of {w['version']}: name outside pennylane: {name}")
            children = root
            for i, part in enumerate(parts[1:], 1):
                node = children.setdefault(part, [0, "module", {}])
                if i == len(parts) - 1:
                    node[0] |= 1 << bit
                    node[1] = kind  # walks come oldest first: the newest kind wins
                children = node[2]
        for name, target in w["aliases"].items():
            slot = aliases.setdefault(name, {})
            slot[target] = slot.get(target, 0) | 1 << bit
        for name, target in w.get("fallbacks", {}).items():
            slot = fallbacks.setdefault(name, {})
            slot[target] = slot.get(target, 0) | 1 << bit
        for mod, attrs in w["external"].items():
            slot = external.setdefault(mod, {})
            for a in attrs:
                slot[a] = slot.get(a, 0) | 1 << bit

    def compact(children: dict) -> dict:
        out = {}
        for k in sorted(children):
            mask, kind, sub = children[k]
            out[k] = [mask, kind, compact(sub)] if sub else [mask, kind]
        return out

    built_with = {**built_with, "resolved": {w["version"]: w.get("packages", {}) for w in walks}}
    return {"format": FORMAT, "versions": versions, "built_with": built_with,
            "counts": {w["version"]: len(w["names"]) for w in walks},
            "import_errors": {w["version"]: w["errors"] for w in walks},
            "tree": compact(root),
            "aliases": {k: aliases[k] for k in sorted(aliases)},
            "fallbacks": fallbacks,
            "external": {m: dict(sorted(external[m].items())) for m in sorted(external)}}


def names_of(index: dict, version: str) -> set[str]:
    """The dotted names (``names`` of the walk) that ``index`` records for ``version``."""
    bit = 1 << index["versions"].index(version)
    out: set[str] = set()
    stack = [("pennylane", index["tree"])]
    while stack:
        prefix, children = stack.pop()
        for k, node in children.items():
            full = f"{prefix}.{k}"
            if node[0] & bit:
                out.add(full)
            if len(node) > 2:
                stack.append((full, node[2]))
    return out | {"pennylane"}


def write_index(index: dict, out: str | Path) -> Path:
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(index, separators=(",", ":"), sort_keys=False).encode()
    if out.suffix == ".xz":
        data = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
    out.write_bytes(data)
    return out


def build(source: str | None, out: str, *, versions: str | None = None,
          current: str = "this", mode: str = "all", **unknown: str) -> dict:
    """``qce build pennylane_api_index --out FILE``: walk each release, write the index.

    ``source`` is unused (PennyLane releases come from PyPI). ``versions`` is a comma-separated
    subset of :data:`RECIPES` (default: all); ``current="this"`` adds the PennyLane installed in
    the running interpreter, ``current="none"`` leaves it out. ``mode="supplement"`` keeps the
    walks of the index at ``out`` (else the shipped one) and recomputes only the supplement
    (lazy, optional-dependency and private names, devices): seconds instead of hours.
    """
    if mode == "supplement":
        if unknown or versions:
            raise ValueError("pennylane_api_index: mode=supplement rescans every indexed release "
                             "and takes no other option")
        return supplement_only(out)
    if mode != "all":
        raise ValueError(f"pennylane_api_index: mode must be 'all' or 'supplement', got {mode!r}")
    if unknown:
        raise ValueError(f"pennylane_api_index: unknown option(s) {', '.join(sorted(unknown))}; "
                         "known: versions, current, mode")
    if current not in ("this", "none"):
        raise ValueError(f"pennylane_api_index: current must be 'this' or 'none', got {current!r}")
    wanted = [v.strip() for v in versions.split(",")] if versions else list(RECIPES)
    for v in wanted:
        if v not in RECIPES and not (current == "this" and v == _installed_version()):
            raise ValueError(f"pennylane_api_index: no recipe for PennyLane {v}; known: "
                             f"{', '.join(RECIPES)} and the installed {_installed_version()}")
    walks: list[dict] = []
    envs: dict[str, list[str]] = {}
    started = time.time()
    for v in wanted:
        if current == "this" and _installed_version() == v:
            continue
        walks.append(walk_in(ensure_env(v)))
        if walks[-1]["version"] != v:
            raise RuntimeError(f"environment for {v} imported PennyLane {walks[-1]['version']}")
        envs[v] = list(RECIPES[v])
    if current == "this":
        walks.append(walk())
        envs[walks[-1]["version"]] = [f"pennylane=={walks[-1]['version']} (the building "
                                      f"interpreter, Python {sys.version.split()[0]})"]
    built_with = {
        "builder": "loaders/pennylane_api_index.py (qce build pennylane_api_index)",
        "python": sys.version.split()[0],
        "environments": envs,
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
    }
    index = combine(walks, built_with)
    index["supplement"] = combine_supplement(index, [scan_release(v) for v in index["versions"]])
    path = write_index(index, out)
    return {"out": str(path), "bytes": path.stat().st_size, "versions": index["versions"],
            "names": index["counts"], "seconds": round(time.time() - started, 1)}


# --------------------------------------------------------------------------------------------
# The supplement: what importing cannot see, read statically from each release's files
# --------------------------------------------------------------------------------------------
#
# The walk above imports PennyLane, so it misses (1) names a module-level ``__getattr__`` serves
# from a table (``qml.qnn.TorchLayer`` through ``class_map``) when their import needs an extra
# (torch, keras) that the environment lacks; (2) whole submodules whose import fails for want of
# an optional dependency (``qml.labs`` needs jax); (3) private names (``_``-prefixed, skipped on
# purpose); and (4) device names, which are entry points, not attributes. The supplement reads
# them from the release's files (the wheel, downloaded once with ``pip download --no-deps`` into
# ``cache_dir("api-index-envs")/wheels``; the installed PennyLane for the current release)
# without importing anything, so it is quick to rebuild for every indexed release.

SUPPLEMENT_FORMAT = "qce-pennylane-api-supplement/1"


def _wheel_dir() -> Path:
    return cache_dir() / "wheels"


def _wheel(dist: str, version: str, download: bool = True) -> Path:
    """The wheel of ``dist==version`` (downloaded once, no dependencies)."""
    folder = _wheel_dir()
    norm = dist.lower().replace("-", "_")
    for path in folder.glob("*.whl") if folder.is_dir() else []:
        name, ver = path.name.split("-")[:2]
        if name.lower().replace("-", "_") == norm and ver == version:
            return path
    if not download:
        raise FileNotFoundError(f"pip download gave no wheel of {dist}=={version} in {folder}")
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                    "--disable-pip-version-check", "--only-binary", ":all:",
                    "--python-version", "3.11", "--platform", "manylinux2014_x86_64",
                    f"{dist}=={version}", "-d", str(folder)], check=True, capture_output=True)
    return _wheel(dist, version, download=False)


def release_files(version: str) -> tuple[dict[str, str], str]:
    """``({module path: source}, entry_points.txt)`` of PennyLane ``version``: the installed
    package when it is that release, else its wheel."""
    import zipfile

    if _installed_version() == version:
        import importlib.util
        from importlib import metadata

        spec = importlib.util.find_spec("pennylane")
        root = Path(next(iter(spec.submodule_search_locations)))
        files = {str(p.relative_to(root.parent)): p.read_text(encoding="utf8", errors="replace")
                 for p in root.rglob("*.py")}
        entry = metadata.distribution("pennylane").read_text("entry_points.txt") or ""
    else:
        with zipfile.ZipFile(_wheel("pennylane", version)) as zf:
            files = {n: zf.read(n).decode("utf8", errors="replace") for n in zf.namelist()
                     if n.startswith("pennylane/") and n.endswith(".py")}
            entry = "".join(zf.read(n).decode() for n in zf.namelist()
                            if n.endswith(".dist-info/entry_points.txt"))
    modules = {}
    for name, text in files.items():
        parts = name[:-3].split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = text
    return modules, entry


def lightning_devices(version: str) -> list[str]:
    """Devices of ``pennylane-lightning`` of the same release (installed beside PennyLane in
    every index environment): its wheel's entry points, else the installed distribution's."""
    from importlib import metadata

    try:
        import zipfile

        if _installed_version() == version:
            raise OSError("the current release: read the installed pennylane-lightning")
        with zipfile.ZipFile(_wheel("pennylane-lightning", version)) as zf:
            entry = "".join(zf.read(n).decode() for n in zf.namelist()
                            if n.endswith(".dist-info/entry_points.txt"))
    except (subprocess.CalledProcessError, OSError):
        try:
            entry = metadata.distribution("pennylane-lightning").read_text("entry_points.txt")
        except metadata.PackageNotFoundError:
            return []
    return _plugin_devices(entry or "")


def _plugin_devices(entry_points: str) -> list[str]:
    out, section = [], None
    for line in entry_points.splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line.strip("[]")
        elif section == "pennylane.plugins" and "=" in line:
            out.append(line.split("=", 1)[0].strip())
    return sorted(out)


def _static_names(tree) -> tuple[set[str], list[str], bool]:
    """Top-level names a module defines (public and private), the relative modules it
    star-imports, and whether it has a module-level ``__getattr__``."""
    import ast

    names: set[str] = set()
    stars: list[str] = []
    dynamic = False

    def visit(body):
        nonlocal dynamic
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
                dynamic |= node.name == "__getattr__"
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            names.add(n.id)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    names.add(a.asname or a.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name == "*":
                        stars.append("." * node.level + (node.module or ""))
                    else:
                        names.add(a.asname or a.name)
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                visit(node.body)
                for h in getattr(node, "handlers", []):
                    visit(h.body)
                visit(getattr(node, "orelse", []))
                visit(getattr(node, "finalbody", []))

    visit(tree.body)
    return names, stars, dynamic


def _lazy_table_names(tree) -> set[str]:
    """Names a module-level ``__getattr__`` serves: identifier string literals in its body and
    the string keys of module-level dicts it reads (``class_map`` of ``qml.qnn``)."""
    import ast

    dicts: dict[str, set[str]] = {}
    getattr_fn = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            keys = {k.value for k in node.value.keys
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            for t in node.targets:
                if isinstance(t, ast.Name):
                    dicts[t.id] = keys
        elif isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            getattr_fn = node
    if getattr_fn is None:
        return set()
    out: set[str] = set()
    for n in ast.walk(getattr_fn):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.isidentifier():
            out.add(n.value)
        elif isinstance(n, ast.Name) and n.id in dicts:
            out |= dicts[n.id]
    return {n for n in out if not n.startswith("__")}


def scan_release(version: str) -> dict:
    """The supplement of one release, from its files (nothing imported)::

        {"version", "lazy": [dotted], "modules": {module: [public names] | None},
         "private": {module: [names]}, "devices": [names]}

    ``modules`` holds every public module file; ``None`` marks one whose names cannot be
    listed statically (star import from outside the release, or a module ``__getattr__``).
    """
    import ast

    sources, entry = release_files(version)
    trees = {}
    for mod, text in sources.items():
        parts = mod.split(".")
        if _SKIP_SUBMODULE_PARTS & set(parts):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                trees[mod] = ast.parse(text)
        except SyntaxError:
            continue
    static = {mod: _static_names(tree) for mod, tree in trees.items()}
    resolved: dict[str, set[str] | None] = {}

    def public_names(mod: str, seen: frozenset = frozenset()) -> set[str] | None:
        if mod in resolved:
            return resolved[mod]
        names, stars, dynamic = static[mod]
        out = {n for n in names if _public(n)}
        open_ = dynamic
        is_pkg = f"{mod}.__init__" in sources or any(k.startswith(mod + ".") for k in sources)
        for star in stars:
            level = len(star) - len(star.lstrip("."))
            base = mod.split(".") if is_pkg else mod.split(".")[:-1]
            base = base[: len(base) - (level - 1)] if level else []
            target = ".".join(base + [star.lstrip(".")]) if level else star.lstrip(".")
            target = target.rstrip(".")
            if target in static and target not in seen:
                sub = public_names(target, seen | {mod})
                if sub is None:
                    open_ = True
                else:
                    out |= sub
            else:
                open_ = True
        # submodules are attributes of their package once imported
        out |= {k[len(mod) + 1:].split(".")[0] for k in static if k.startswith(mod + ".")
                and _public(k[len(mod) + 1:].split(".")[0])}
        resolved[mod] = None if open_ else out
        return resolved[mod]

    modules, private, lazy = {}, {}, []
    for mod in sorted(static):
        parts = mod.split(".")
        if not all(_public(p) for p in parts[1:]):
            continue
        names = public_names(mod)
        modules[mod] = sorted(names) if names is not None else None
        priv = sorted(n for n in static[mod][0] if n.startswith("_") and not n.startswith("__"))
        if priv:
            private[mod] = priv
        lazy += [f"{mod}.{n}" for n in sorted(_lazy_table_names(trees[mod])) if _public(n)]
    devices = sorted(set(_plugin_devices(entry)) | set(lightning_devices(version)))
    return {"version": version, "lazy": lazy, "modules": modules, "private": private,
            "devices": devices}


def combine_supplement(index: dict, scans: list[dict]) -> dict:
    """Merge per-release scans into ``index["supplement"]``: a trie of the names the walk did
    not record, component -> ``[mask, kind(, children)]`` with kind ``lazy`` (served by a module
    ``__getattr__``), ``extras`` (a module whose import failed in the build for want of an
    optional dependency, and its statically listed names; ``extras-open`` when those cannot be
    listed) or ``private``; and ``devices``: device name -> mask."""
    versions = index["versions"]
    root: dict = {}
    devices: dict[str, int] = {}
    # imported here: the walker part of this file runs in bare environments
    from quantum_codegen_eval.metrics.hallucination import _exists, home_path

    def add(path: str, bit: int, kind: str) -> None:
        children = root
        parts = path.split(".")[1:]
        for i, part in enumerate(parts):
            node = children.setdefault(part, [0, "module", {}])
            if i == len(parts) - 1:
                node[0] |= 1 << bit
                node[1] = kind
            children = node[2]

    for scan in scans:
        bit = versions.index(scan["version"])

        def walked(path: str, bit: int = bit) -> bool:
            return _exists(index, path.split(".")[1:], bit, supplement=False)

        for path in scan["lazy"]:
            mod, _, name = path.rpartition(".")
            if not walked(path):
                add(f"{home_path(index, mod, bit) or mod}.{name}", bit, "lazy")
        for mod, names in scan["modules"].items():
            if mod == "pennylane" or walked(mod):
                continue
            add(mod, bit, "extras" if names is not None else "extras-open")
            for n in names or []:
                if not walked(f"{mod}.{n}"):
                    add(f"{mod}.{n}", bit, "extras")
        for mod, names in scan["private"].items():
            home = home_path(index, mod, bit) or mod  # where the resolver looks for them
            for n in names:
                add(f"{home}.{n}", bit, "private")
        for d in scan["devices"]:
            devices[d] = devices.get(d, 0) | 1 << bit

    def compact(children: dict) -> dict:
        out = {}
        for k in sorted(children):
            mask, kind, sub = children[k]
            out[k] = [mask, kind, compact(sub)] if sub else [mask, kind]
        return out

    return {"format": SUPPLEMENT_FORMAT, "tree": compact(root),
            "devices": dict(sorted(devices.items())),
            "built_with": {"builder": "loaders/pennylane_api_index.py (scan_release)",
                           "date": time.strftime("%Y-%m-%d", time.gmtime())}}


def supplement_only(out: str | Path) -> dict:
    """Recompute the supplement of the index at ``out`` (default the shipped one) for all its
    releases, without rebuilding the walks; writes ``out``."""
    from quantum_codegen_eval.metrics.hallucination import load_index

    src = Path(out)
    index = dict(load_index(str(src) if src.is_file() else None))
    index.pop("supplement", None)
    started = time.time()
    scans = [scan_release(v) for v in index["versions"]]
    index["supplement"] = combine_supplement(index, scans)
    path = write_index(index, out)
    return {"out": str(path), "bytes": path.stat().st_size, "versions": index["versions"],
            "seconds": round(time.time() - started, 1)}


def _installed_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("pennylane")
    except Exception:  # noqa: BLE001
        return None


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--walk":
        result = walk()
        Path(sys.argv[2]).write_text(json.dumps(result))
    else:
        print("usage: python pennylane_api_index.py --walk OUT.json", file=sys.stderr)
        sys.exit(2)
