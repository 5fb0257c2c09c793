"""An interpreter of another Python version that the sandbox's unprivileged user can run, found
and copied out of a closed home (pyenv under root's): what `make test-fast PY=3.10` builds on."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from quantum_codegen_eval.cache import world_traversable
from quantum_codegen_eval.execution import envs

NOBODY = 65534


def _closed_version() -> str | None:
    """A Python version other than this one whose only installation is closed to other users."""
    for minor in (10, 12, 13, 9):
        version = f"3.{minor}"
        if version == f"{sys.version_info[0]}.{sys.version_info[1]}":
            continue
        for cand in envs._candidates(version):
            if envs._version_of(cand) == version and not world_traversable(
                    envs._prefix_of(cand)):
                return version
    return None


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (to run as another user)")
def test_a_closed_interpreter_is_copied_so_another_user_runs_it():
    version = _closed_version()
    if version is None:
        pytest.skip("no other Python version installed in a closed folder here")
    python = envs.readable_python(version)
    assert world_traversable(envs._prefix_of(python))
    # as the sandbox's user: the copy loads its own libpython (its RUNPATH is $ORIGIN-relative)
    out = subprocess.run([python, "-c", "import sys, ssl, sqlite3; print(sys.version[:4])"],
                         user=NOBODY, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().startswith(version)
    assert envs.readable_python(version) == python  # made once


def test_a_readable_interpreter_is_used_as_it_is(tmp_path):
    running = envs.running_python()
    if not world_traversable(envs._prefix_of(running)):
        pytest.skip("this interpreter's installation is closed to other users")
    assert envs.readable_copy(running, tmp_path / "copy") == running
    assert not (tmp_path / "copy").exists()
