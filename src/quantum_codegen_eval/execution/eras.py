"""Era environments: pinned interpreters for benchmarks written against old PennyLane releases.

Each era environment is a virtual environment built from the interpreter that runs this package
(``sys._base_executable``, so the stdlib-only sandbox worker runs there too) with one pinned
recipe. They live in :func:`cache_dir` (``$QCE_CACHE/envs``, ``~/.cache/quantum-codegen-eval/envs``,
or a system folder when the home is closed to the sandbox user), are created on demand (a few minutes of ``pip install``; ``env_python`` creates on first use)
and reused afterwards.

>>> [row["name"] for row in list_envs()]
['qhack-2022', 'qhack-2023', 'qhack-2024']
>>> python = env_python("qhack-2023")  # doctest: +SKIP
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Recipe:
    """A pinned environment: the pip requirements and the modules that must import afterwards."""

    name: str
    requirements: tuple[str, ...]
    check_imports: tuple[str, ...] = ("numpy", "scipy", "pennylane", "networkx")
    description: str = ""

    def text(self) -> str:
        return " ".join(self.requirements)


#: The era of each QHack contest: its PennyLane release on Python 3.11, every package pinned
#: (numpy 1.20 has no 3.11 wheel; 0.28 needs numpy < 1.24; autograd > 1.6.2 breaks Hamiltonian
#: gradients on 0.34; autoray >= 0.7 and scipy >= 1.13 break 0.34's imports).
RECIPES: dict[str, Recipe] = {
    "qhack-2022": Recipe(
        "qhack-2022",
        ("pennylane==0.21.0", "pennylane-lightning==0.21.0", "numpy==1.26.4", "scipy==1.11.4",
         "autograd==1.5", "autoray==0.2.5", "networkx==2.8.8", "retworkx==0.13.2",
         "rustworkx==0.13.2", "semantic_version==2.6.0", "toml==0.10.2", "appdirs==1.4.4",
         "cachetools==8.0.2", "future==1.0.0", "ninja==1.13.2"),
        description="QHack 2022 (PennyLane 0.21.0)",
    ),
    "qhack-2023": Recipe(
        "qhack-2023",
        ("pennylane==0.28.0", "pennylane-lightning==0.28.0", "numpy==1.23.5", "scipy==1.10.1",
         "autograd==1.5", "autoray==0.3.1", "networkx==2.8.8", "retworkx==0.13.2",
         "rustworkx==0.13.2", "semantic_version==2.10.0", "toml==0.10.2", "appdirs==1.4.4",
         "cachetools==8.0.2", "future==1.0.0", "ninja==1.13.2", "requests==2.34.2"),
        description="QHack 2023 (PennyLane 0.28.0)",
    ),
    "qhack-2024": Recipe(
        "qhack-2024",
        ("pennylane==0.34.0", "pennylane-lightning==0.34.0", "numpy==1.26.4", "scipy==1.12.0",
         "autograd==1.6.2", "autoray==0.6.12", "networkx==3.6.1", "rustworkx==0.18.1",
         "semantic_version==2.10.0", "toml==0.10.2", "appdirs==1.4.4", "cachetools==8.0.2",
         "future==1.0.0", "requests==2.34.2", "typing_extensions==4.16.0"),
        description="QHack 2024 (PennyLane 0.34.0)",
    ),
}

_STAMP = "qce-env.json"


def cache_dir() -> Path:
    """The folder that holds the era environments (see :mod:`quantum_codegen_eval.cache`)."""
    from ..cache import cache_dir as _cache_dir

    return _cache_dir("envs")


def _recipe(name: str) -> Recipe:
    if name not in RECIPES:
        raise ValueError(f"unknown era environment {name!r}; known: {', '.join(RECIPES)}")
    return RECIPES[name]


def env_dir(name: str) -> Path:
    return cache_dir() / _recipe(name).name


def _python_in(folder: Path) -> Path:
    return folder / "bin" / "python"


def _ready(name: str) -> bool:
    folder = env_dir(name)
    stamp = folder / _STAMP
    if not stamp.is_file() or not _python_in(folder).exists():
        return False
    try:
        data = json.loads(stamp.read_text())
    except (OSError, ValueError):
        return False
    return data.get("requirements") == list(_recipe(name).requirements)


def list_envs() -> list[dict]:
    """One row per known environment: name, ready, recipe, path (the python, when ready)."""
    rows = []
    for name, recipe in RECIPES.items():
        ready = _ready(name)
        rows.append({"name": name, "ready": ready, "recipe": recipe.text(),
                     "description": recipe.description,
                     "path": str(_python_in(env_dir(name))) if ready else None})
    return rows


def base_python() -> str:
    """The interpreter new virtual environments are made from (the one below any venv)."""
    base = getattr(sys, "_base_executable", None) or sys.executable
    return base if base and Path(base).exists() else sys.executable


def run_logged(cmd: list[str], log: Path) -> None:
    """Run ``cmd`` with its output appended to ``log``; a failure raises with the log's tail."""
    with log.open("a") as fh:
        fh.write("$ " + " ".join(cmd) + "\n")
        fh.flush()
        proc = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT, check=False)
    if proc.returncode != 0:
        tail = log.read_text()[-3000:]
        raise RuntimeError(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{tail}")


def create_env(name: str, *, force: bool = False) -> Path:
    """Create (or reuse) era environment ``name``; returns the path of its python.

    Concurrent callers (several test processes) are serialised with a lock file; a half-built
    folder from an interrupted run is rebuilt.
    """
    recipe = _recipe(name)
    folder = env_dir(name)
    folder.parent.mkdir(parents=True, exist_ok=True)
    with (folder.parent / f".{recipe.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _ready(name) and not force:
            return _python_in(folder)
        if folder.exists():
            shutil.rmtree(folder)
        tmp = folder.with_name(folder.name + ".partial")
        if tmp.exists():
            shutil.rmtree(tmp)
        log = folder.parent / f"{recipe.name}.log"
        log.write_text("")
        # Build in place under its final name: venv scripts embed their absolute path.
        run_logged([base_python(), "-m", "venv", str(folder)], log)
        py = str(_python_in(folder))
        try:
            run_logged([py, "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
                  *recipe.requirements], log)
            probe = "; ".join(f"import {m}" for m in recipe.check_imports)
            run_logged([py, "-c", probe + "; import pennylane as qml; print(qml.__version__)"], log)
        except Exception:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        _open_for_reading(folder)
        (folder / _STAMP).write_text(json.dumps(
            {"name": recipe.name, "requirements": list(recipe.requirements),
             "base_python": base_python()}, indent=2))
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


def env_python(name: str, create: bool = True) -> Path:
    """The python of environment ``name``; created first when missing and ``create`` is true."""
    if _ready(name):
        return _python_in(env_dir(name))
    if not create:
        raise FileNotFoundError(f"era environment {name} is not created; run: qce env create {name}")
    return create_env(name)


def remove_env(name: str) -> None:
    """Delete environment ``name`` (no error when it does not exist)."""
    folder = env_dir(name)
    if folder.exists():
        shutil.rmtree(folder)
