"""Fresh installs, as a user gets them: build a wheel, make a virtual environment from the
system interpreter (the sandbox's user must read its files), run commands in it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def run(*cmd, env=None, cwd=None, timeout=900, rc=0) -> subprocess.CompletedProcess:
    """Run ``cmd`` (``env`` added to this process's), asserting its exit code."""
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, **(env or {})}, timeout=timeout)
    assert proc.returncode == rc, f"{cmd}: rc {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    return proc


def build_wheel(source: Path, outdir: Path) -> Path:
    """The wheel of the project in ``source``, built into ``outdir`` from its sdist (as a
    release is: a ``build/`` folder left in ``source`` by an earlier build cannot leak stale
    files into it)."""
    run(sys.executable, "-m", "build", "--outdir", outdir, source, timeout=900)
    (built,) = Path(outdir).glob("*.whl")
    return built


def venv(path: Path) -> tuple[Path, Path]:
    """A fresh virtual environment at ``path``: (its python, its qce)."""
    base = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
    run(base, "-m", "venv", path, timeout=300)
    return path / "bin" / "python", path / "bin" / "qce"


@contextmanager
def scratch(prefix: str) -> Iterator[Path]:
    """A world-traversable folder in /var/tmp (the sandbox's user runs a venv's interpreter and
    reads the era interpreters there), removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix=prefix, dir="/var/tmp"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
