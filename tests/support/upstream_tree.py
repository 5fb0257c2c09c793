"""The upstream repositories of the benchmarks, unpacked through the package's own download,
cache and verification path, laid out as a folder a user's ``--source`` accepts.

Used by the test fixtures and by ``timing/``: ``tree(dest)`` gives ``dest/<benchmark>/`` for every
benchmark built from upstream (``dest/qhack/``, ``dest/qcoder/``, ...), each holding links to
that benchmark's unpacked repositories (``<repo>-<commit>/``). The download base is ``$QCE_GITHUB_URL`` (a ``file://``
mirror in tests).
"""

from __future__ import annotations

from pathlib import Path


def benchmarks() -> tuple[str, ...]:
    """The benchmarks whose data is built from upstream archives pinned by a shipped manifest
    (the registry's; no list kept here)."""
    from quantum_codegen_eval.benchmarks.base import registry
    from quantum_codegen_eval.datasets_cache import from_upstream

    return tuple(name for name, bench in registry().items() if from_upstream(bench))


def unpacked(benchmark: str, dest: Path) -> Path:
    """``dest/<benchmark>/`` holding a link to each of its unpacked upstream repositories."""
    from quantum_codegen_eval import upstream

    folder = dest / benchmark
    folder.mkdir(parents=True, exist_ok=True)
    for repo in upstream.repositories(benchmark).values():
        link = folder / repo.top
        if not link.exists():
            link.symlink_to(upstream.unpacked(repo, progress=False), target_is_directory=True)
    return folder


def tree(dest: Path, names: tuple[str, ...] | None = None) -> Path:
    for name in benchmarks() if names is None else names:
        unpacked(name, dest)
    return dest
