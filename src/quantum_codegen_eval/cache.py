"""The one cache root: era environments, API-index environments, downloads, built datasets.

``$QCE_CACHE`` when set, else ``~/.cache/quantum-codegen-eval``. The sandbox runs programs as an
unprivileged user who must read the interpreters kept here, so when the home folder is closed to
other users (root's usually is) ``/var/cache/quantum-codegen-eval`` (root) or
``/var/tmp/quantum-codegen-eval-<uid>`` is used instead.

>>> cache_dir("envs").name
'envs'
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: the kinds of things kept, one sub-folder each
KINDS = ("envs", "api-index-envs", "downloads", "datasets", "hf-datasets", "codebleu-ref",
         "pythons")


def world_traversable(path: Path) -> bool:
    """Whether another user (the sandbox's) can reach ``path``: every existing ancestor o+x."""
    for p in [path, *path.parents]:
        if p.exists() and not os.stat(p).st_mode & stat.S_IXOTH:
            return False
    return True


def cache_root() -> Path:
    root = os.environ.get("QCE_CACHE")
    if root:
        return Path(root)
    home = Path.home() / ".cache" / "quantum-codegen-eval"
    if world_traversable(home):
        return home
    if os.geteuid() == 0:
        return Path("/var/cache/quantum-codegen-eval")
    return Path(f"/var/tmp/quantum-codegen-eval-{os.geteuid()}")


def cache_dir(kind: str) -> Path:
    """The folder for one kind of cached thing (not created here)."""
    if kind not in KINDS:
        raise ValueError(f"unknown cache kind {kind!r}; known: {', '.join(KINDS)}")
    return cache_root() / kind


def private_dir(kind: str) -> Path:
    """``cache_dir(kind)``, created and kept closed to other users (mode 0700): what it holds
    (upstream archives, built datasets with expected outputs) must not be readable from the
    sandbox's unprivileged user."""
    path = cache_dir(kind)
    path.mkdir(parents=True, exist_ok=True)
    if path.stat().st_uid == os.geteuid() and path.stat().st_mode & 0o077:
        path.chmod(0o700)
    return path
