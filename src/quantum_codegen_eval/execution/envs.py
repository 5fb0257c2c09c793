"""Pinned virtual environments built from a recipe (the recipes come from the benchmarks).

A :class:`Recipe` names pip requirements, the modules that must import afterwards and, optionally,
the Python versions it was written for. :func:`create` builds it under
``cache_dir("envs")/<name>`` with the first interpreter of a preferred version it finds (one the
caller names, ``$QCE_PYTHON_<NAME>``, pyenv, ``uv python find``, ``python3.X`` on ``PATH``); when
there is none and the recipe has a ``fallback`` it builds that instead and warns with the
recipe's note on what may differ. The stamp ``qce-env.json`` records the recipe and interpreter.

An interpreter the sandbox user cannot read (pyenv under a closed ``/root``) is copied into the
environment folder first (``base/``), so the environment is self-contained.

>>> r = Recipe("demo", ("six==1.16.0",), check_imports=("six",))
>>> r.text()
'six==1.16.0'
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

STAMP = "qce-env.json"


@dataclass(frozen=True)
class Recipe:
    """A pinned environment. ``pythons``: preferred interpreter versions ("3.9", ...), empty for
    the interpreter running this package; ``fallback``: the recipe used when none is found."""

    name: str
    requirements: tuple[str, ...]
    check_imports: tuple[str, ...] = ()
    description: str = ""
    pythons: tuple[str, ...] = ()
    fallback: Recipe | None = None
    fallback_note: str = ""

    def text(self) -> str:
        return " ".join(self.requirements)


class EnvWarning(UserWarning):
    """An environment was built with a fallback recipe (results may differ from the era's)."""


def cache_dir() -> Path:
    from ..cache import cache_dir as _cache_dir

    return _cache_dir("envs")


def env_dir(recipe: Recipe) -> Path:
    return cache_dir() / recipe.name


def _python_in(folder: Path) -> Path:
    return folder / "bin" / "python"


def stamp(recipe: Recipe) -> dict | None:
    """The stamp of the built environment, or None."""
    path = env_dir(recipe) / STAMP
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _ready(recipe: Recipe) -> bool:
    data = stamp(recipe)
    if data is None or not _python_in(env_dir(recipe)).exists():
        return False
    built = data.get("requirements")
    if built == list(recipe.requirements):
        return True
    # built with the fallback: still good unless an era interpreter has appeared since
    return (recipe.fallback is not None and built == list(recipe.fallback.requirements)
            and find_python(recipe) is None)


def running_python() -> str:
    """The interpreter below any venv that runs this package."""
    base = getattr(sys, "_base_executable", None) or sys.executable
    return base if base and Path(base).exists() else sys.executable


def _version_of(python: str) -> str | None:
    try:
        out = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                             capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def _env_var(recipe: Recipe) -> str:
    return "QCE_PYTHON_" + re.sub(r"[^A-Z0-9]", "_", recipe.name.upper())


def _candidates(version: str) -> list[str]:
    out = []
    roots = [os.environ.get("PYENV_ROOT"), str(Path.home() / ".pyenv"), "/root/.pyenv"]
    for root in dict.fromkeys(r for r in roots if r):
        try:
            found = sorted(Path(root, "versions").glob(f"{version}.*/bin/python{version}"),
                           key=lambda p: [int(x) for x in re.findall(r"\d+", p.parts[-3])],
                           reverse=True)
        except OSError:
            continue
        out += [str(p) for p in found]
    if shutil.which("uv"):
        try:
            res = subprocess.run(["uv", "python", "find", version], capture_output=True,
                                 text=True, timeout=60, check=False)
            if res.returncode == 0 and res.stdout.strip():
                out.append(res.stdout.strip())
        except (OSError, subprocess.SubprocessError):
            pass
    on_path = shutil.which(f"python{version}")
    if on_path:
        out.append(on_path)
    return out


def find_python(recipe: Recipe, python: str | None = None) -> str | None:
    """An interpreter of one of the recipe's versions: ``python`` or ``$QCE_PYTHON_<NAME>`` when
    given (must exist), else the first found. None when the recipe prefers none or none is found."""
    named = python or os.environ.get(_env_var(recipe))
    if named:
        if _version_of(named) is None:
            raise FileNotFoundError(f"{recipe.name}: interpreter {named} does not run")
        return named
    for version in recipe.pythons:
        for cand in _candidates(version):
            if _version_of(cand) == version:
                return cand
    return None


def run_logged(cmd: list[str], log: Path) -> None:
    """Run ``cmd`` with its output appended to ``log``; a failure raises with the log's tail."""
    with log.open("a") as fh:
        fh.write("$ " + " ".join(cmd) + "\n")
        fh.flush()
        proc = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT, check=False)
    if proc.returncode != 0:
        tail = log.read_text()[-3000:]
        raise RuntimeError(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{tail}")


def _world_readable(path: Path) -> bool:
    from ..cache import world_traversable

    return world_traversable(path)


def _prefix_of(python: str) -> Path:
    out = subprocess.run([python, "-c", "import sys; print(sys.base_prefix)"],
                         capture_output=True, text=True, timeout=60, check=True)
    return Path(out.stdout.strip())


def readable_copy(python: str, into: Path) -> str:
    """``python`` itself when the sandbox's user can read its installation, else the path of
    the same interpreter in a copy of that installation at ``into`` (made once)."""
    prefix = _prefix_of(python)
    if _world_readable(prefix):
        return python
    copy = into / "bin" / Path(python).name
    if not copy.exists():
        partial = into.with_name(into.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        shutil.copytree(prefix, partial, symlinks=True)
        for binary in (partial / "bin").iterdir():
            _relocate_runpath(binary, prefix)
        partial.rename(into)
    return str(copy)


def _relocate_runpath(binary: Path, prefix: Path) -> None:
    """Point an interpreter's library search path (ELF RUNPATH/RPATH, set by a shared build
    such as pyenv's) from ``prefix/lib`` to ``$ORIGIN/../lib``, so the copy loads its own
    ``libpython`` and not the closed original's. The new path is shorter: it is written over
    the old one in the string table, padded with NULs (as ``patchelf --set-rpath`` does)."""
    if binary.is_symlink() or not binary.is_file():
        return
    data = binary.read_bytes()
    if not data.startswith(b"\x7fELF"):
        return
    old, new = str(prefix / "lib").encode() + b"\0", b"$ORIGIN/../lib"
    found = data.find(b"\0" + old)
    if found < 0:
        return
    start = found + 1
    patched = data[:start] + new + b"\0" * (len(old) - len(new)) + data[start + len(old):]
    binary.write_bytes(patched)


def readable_python(version: str) -> str:
    """An interpreter of Python ``version`` ("3.10") that the sandbox's unprivileged user can
    run: the first one found (pyenv, ``uv python find``, ``python3.X`` on ``PATH``), copied
    under ``cache_dir("pythons")`` when its installation is closed to other users (pyenv under
    root's home). The Makefile's ``PY=3.10`` builds its venv from it."""
    from ..cache import cache_dir as _cache_dir

    for cand in _candidates(version):
        if _version_of(cand) == version:
            into = _cache_dir("pythons") / version
            into.parent.mkdir(parents=True, exist_ok=True)
            found = readable_copy(cand, into)
            if found != cand:
                _open_for_reading(into)
            return found
    raise FileNotFoundError(f"no Python {version} found (pyenv, uv python find, python{version} "
                            "on PATH)")


def create(recipe: Recipe, *, python: str | None = None, force: bool = False) -> Path:
    """Create (or reuse) the environment of ``recipe``; returns the path of its python.

    Concurrent callers are serialised with a lock file; a half-built folder is rebuilt.
    """
    folder = env_dir(recipe)
    folder.parent.mkdir(parents=True, exist_ok=True)
    with (folder.parent / f".{recipe.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _ready(recipe) and not force and python is None:
            return _python_in(folder)
        chosen, used, note = find_python(recipe, python), recipe, ""
        if chosen is None and recipe.pythons:
            if recipe.fallback is None:
                raise FileNotFoundError(
                    f"{recipe.name} needs Python {' or '.join(recipe.pythons)}; install one "
                    f"(pyenv, uv python install) or name it with ${_env_var(recipe)}")
            used, note = recipe.fallback, recipe.fallback_note
            warnings.warn(f"{recipe.name}: no Python {' or '.join(recipe.pythons)} found; built "
                          f"with today's interpreter instead. {note}", EnvWarning, stacklevel=2)
        base = chosen or running_python()
        if folder.exists():
            shutil.rmtree(folder)
        log = folder.parent / f"{recipe.name}.log"
        log.write_text("")
        try:
            venv_from = readable_copy(base, folder / "base")
            copied = venv_from != base
            # built in place under its final name: venv scripts embed their absolute path
            run_logged([venv_from, "-m", "venv", str(folder)], log)
            py = str(_python_in(folder))
            if used.requirements:
                run_logged([py, "-m", "pip", "install", "--disable-pip-version-check",
                            "--no-input", *used.requirements], log)
            if used.check_imports:
                run_logged([py, "-c", "; ".join(f"import {m}" for m in used.check_imports)], log)
        except Exception:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        _open_for_reading(folder)
        (folder / STAMP).write_text(json.dumps(
            {"name": recipe.name, "recipe": used.name if used is not recipe else "era",
             "requirements": list(used.requirements), "interpreter": base,
             "python_version": _version_of(py), "interpreter_copied": copied,
             "fallback": used is not recipe, "note": note}, indent=2))
        return _python_in(folder)


def _open_for_reading(folder: Path) -> None:
    """a+rX on the environment (the sandbox user must read it whatever the umask was)."""
    for p in [folder, *folder.parents]:
        if p == cache_dir().parent.parent:
            break
        p.chmod(p.stat().st_mode | stat.S_IROTH | stat.S_IXOTH | stat.S_IRGRP | stat.S_IXGRP)
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            if p.is_symlink():
                continue
            mode = p.stat().st_mode
            extra = stat.S_IRGRP | stat.S_IROTH
            if mode & stat.S_IXUSR or p.is_dir():
                extra |= stat.S_IXGRP | stat.S_IXOTH
            p.chmod(mode | extra)


def python_of(recipe: Recipe, create_missing: bool = True) -> Path:
    """The python of ``recipe``'s environment; created first when missing and asked to."""
    if _ready(recipe):
        return _python_in(env_dir(recipe))
    if not create_missing:
        raise FileNotFoundError(
            f"environment {recipe.name} is not created; run: qce env create {recipe.name}")
    return create(recipe)


def describe(recipe: Recipe) -> dict:
    """One row for listings: name, ready, recipe, description, path, and the stamp when built."""
    ready = _ready(recipe)
    return {"name": recipe.name, "ready": ready, "recipe": recipe.text(),
            "description": recipe.description,
            "path": str(_python_in(env_dir(recipe))) if ready else None,
            "built": stamp(recipe) if ready else None}


def remove(recipe: Recipe) -> None:
    """Delete the environment (no error when it does not exist)."""
    folder = env_dir(recipe)
    if folder.exists():
        shutil.rmtree(folder)


if __name__ == "__main__":  # python -m quantum_codegen_eval.execution.envs 3.10 (the Makefile)
    print(readable_python(sys.argv[1]))
