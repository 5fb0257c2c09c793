"""Shared fixtures. Area-specific fixtures live in tests/<area>/conftest.py.

The upstream repositories come through the package's real download path: ``QCE_GITHUB_URL`` is
pointed at the local mirror ``../shared/upstream/github`` (the archives exactly as
codeload.github.com serves them; override the folder with ``$QCE_TEST_GITHUB_MIRROR``, or set
``QCE_GITHUB_URL`` yourself), so no test reaches the internet.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def github_mirror() -> Path | None:
    """The folder of upstream archives: $QCE_TEST_GITHUB_MIRROR, else ../shared/upstream/github
    beside the clone or one of its parents."""
    env = os.environ.get("QCE_TEST_GITHUB_MIRROR")
    if env:
        path = Path(env)
        if not path.is_dir():
            raise RuntimeError(f"QCE_TEST_GITHUB_MIRROR={env} is not a folder")
        return path.resolve()
    for parent in REPO.parents:  # ../shared beside the clone (a worktree may sit deeper)
        guess = parent / "shared" / "upstream" / "github"
        if guess.is_dir():
            return guess.resolve()
    return None


_MIRROR = github_mirror()
if _MIRROR is not None and not os.environ.get("QCE_GITHUB_URL"):
    os.environ["QCE_GITHUB_URL"] = _MIRROR.as_uri()


@pytest.fixture(scope="session")
def github_url() -> str:
    """The download base every build in the tests uses (a file:// mirror)."""
    url = os.environ.get("QCE_GITHUB_URL")
    if not url or not url.startswith("file://"):
        if os.environ.get("CI"):
            raise RuntimeError("CI run without the upstream archives: ../shared/upstream/github "
                               "or $QCE_TEST_GITHUB_MIRROR")
        pytest.skip("upstream archives not found: set QCE_TEST_GITHUB_MIRROR")
    return url


def _unpacked(benchmark: str, dest: Path) -> Path:
    """``dest/<benchmark>/`` holding each upstream repository of ``benchmark``, fetched through
    the package's download, cache and unpack code (a folder ``--source`` accepts)."""
    from quantum_codegen_eval import upstream

    folder = dest / benchmark
    folder.mkdir(parents=True, exist_ok=True)
    for repo in upstream.repositories(benchmark).values():
        link = folder / repo.top
        if not link.exists():
            link.symlink_to(upstream.unpacked(repo, progress=False), target_is_directory=True)
    return folder


@pytest.fixture(scope="session")
def upstream(github_url, tmp_path_factory) -> Path:
    """A folder ``qhack/``, ``qcoder/``, ``qiskit_humaneval/``, each holding that benchmark's
    upstream repositories unpacked (``<repo>-<commit>/``), as a user's ``--source`` would."""
    root = tmp_path_factory.mktemp("upstream")
    from quantum_codegen_eval import upstream as up

    for name in ("qhack", "qcoder", "qiskit_humaneval"):
        if up.manifest_path(name).is_file():  # QHack's arrives with the QHack builder's branch
            _unpacked(name, root)
    return root
