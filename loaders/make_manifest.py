"""Generate the shipped upstream manifests (``src/quantum_codegen_eval/data/manifests/*.json``).

Each builder module (``loaders/<benchmark>.py``) owns its facts and provides::

    REPOSITORIES: dict[str, upstream.Repo]      # key -> repository at its pinned commit
    PROBES: dict[str, str]                      # key -> a file that identifies a local copy
    manifest_entries(trees: dict[str, upstream.Tree]) -> list[dict]
        # per-problem facts ({"id", "repository", "path", ...}); it must read, through the
        # trees, every file the builder reads (the reads become the manifest's file list)
    build(source, out, *, github_url=None, progress=True, **options) -> dict
        # source None: download at the pins (upstream.open_trees); datasets_cache calls this

Usage (from the repository root)::

    python loaders/make_manifest.py qcoder qiskit_humaneval qhack quantum_katas   # at the pins
    python loaders/make_manifest.py --github-url file:///path/to/mirror --check qcoder

``--check`` compares with the shipped file instead of writing it (exit 1 on a difference).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from quantum_codegen_eval import upstream


def upstream_benchmarks() -> tuple[str, ...]:
    """The benchmarks built from pinned upstream repositories: those whose declared builder
    defines ``REPOSITORIES`` (read from the registry; no list kept here)."""
    from quantum_codegen_eval.benchmarks.base import registry

    return tuple(name for name, bench in registry().items() if bench.builder
                 and hasattr(importlib.import_module(bench.builder), "REPOSITORIES"))


BENCHMARKS = upstream_benchmarks()
SHIPPED = Path(__file__).resolve().parents[1] / "src" / "quantum_codegen_eval" / "data" / "manifests"


def make_manifest(benchmark: str, source: Any = None, *, github_url: str | None = None,
                  progress: bool = False) -> dict[str, Any]:
    """The manifest of ``benchmark`` as a JSON-ready dict, read from the real upstream."""
    mod = importlib.import_module(f"quantum_codegen_eval.loaders.{benchmark}")
    repos = mod.REPOSITORIES
    with upstream.open_unverified(repos, source, github_url=github_url,
                                  probes=getattr(mod, "PROBES", None), progress=progress) as trees:
        problems = mod.manifest_entries(trees)
        files = {k: dict(t.reads) for k, t in trees.items()}
    return upstream.Manifest(benchmark, dict(repos), files, problems).to_dict()


def dumps(manifest: dict[str, Any]) -> str:
    return json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("benchmarks", nargs="*", default=list(BENCHMARKS))
    p.add_argument("--source", help="local upstream copy (default: download at the pins)")
    p.add_argument("--github-url", help="download base (default $QCE_GITHUB_URL or codeload)")
    p.add_argument("--out", default=str(SHIPPED), help="folder to write <benchmark>.json into")
    p.add_argument("--check", action="store_true", help="compare with the files in --out")
    args = p.parse_args(argv)
    status = 0
    for name in args.benchmarks:
        text = dumps(make_manifest(name, args.source, github_url=args.github_url, progress=True))
        path = Path(args.out) / f"{name}.json"
        if args.check:
            same = path.is_file() and path.read_text(encoding="utf-8") == text
            print(f"{path}: {'up to date' if same else 'DIFFERS from upstream'}")
            status |= 0 if same else 1
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return status


if __name__ == "__main__":
    sys.exit(main())
