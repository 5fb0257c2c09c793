"""The embedded default: a benchmark's dataset folder, built in the cache on first use.

``dataset_dir(name)`` is what ``load_benchmark(name)``, ``evaluate(...)``, ``qce judge`` and
``qce evaluate`` use when no data folder is given: ``cache_dir("datasets")/<name>/<fingerprint>``
(closed to other users: the sandbox's user must not read expected outputs),
where the fingerprint covers the package version, the shipped manifest and the builder, so a
changed builder never serves a stale folder. The first use downloads the upstream archives at
their pinned commits (``$QCE_GITHUB_URL`` or codeload.github.com), verifies them, builds, and says
once on stderr where the folder went. Without network and without a cached folder it raises
:class:`DataUnavailable`, whose one-line message names the command that builds from a local copy.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from .cache import private_dir

#: benchmark -> builder module (the ones built from pinned upstream GitHub archives)
BUILDABLE = {
    "qhack": "quantum_codegen_eval.loaders.qhack",
    "qcoder": "quantum_codegen_eval.loaders.qcoder",
    "qiskit_humaneval": "quantum_codegen_eval.loaders.qiskit_humaneval",
}


class DataUnavailable(RuntimeError):
    """The dataset is not cached and cannot be built here; the message says what to run."""


class WrongDataFolder(DataUnavailable):
    """A data folder that does not hold the benchmark's config (another benchmark's folder)."""


def load_folder(folder: str | Path, benchmark: str, config: str, split: str) -> Any:
    """``datasets.load_dataset(folder, config, split=split)``, after checking that the folder's
    card declares ``config``: a folder of another benchmark is :class:`WrongDataFolder` naming
    what the folder holds, not datasets' ``BuilderConfig ... not found``."""
    import datasets

    folder = Path(folder)
    card = folder / "README.md"
    if not card.is_file():
        raise FileNotFoundError(f"{folder} is not a {benchmark} dataset folder (no README.md "
                                f"card); build one with `qce build {benchmark} --out DIR`")
    declared = _card_configs(card)
    if declared is not None and config not in declared:
        raise WrongDataFolder(
            f"{folder} is not a {benchmark} dataset folder: it holds the configs "
            f"{', '.join(declared) or '(none)'}, not {benchmark}'s {config!r} (another "
            f"benchmark's folder?); pass the folder `qce build {benchmark} --out DIR` wrote")
    return datasets.load_dataset(str(folder), config, split=split)


def _card_configs(card: Path) -> list[str] | None:
    """The ``config_name`` values of a card's YAML header (None when it has no readable one)."""
    import yaml

    text = card.read_text(encoding="utf-8", errors="replace")
    end = text.find("\n---", 4)
    if not text.startswith("---\n") or end < 0:
        return None
    try:
        meta = yaml.safe_load(text[4:end]) or {}
    except yaml.YAMLError:
        return None
    configs = meta.get("configs") if isinstance(meta, dict) else None
    if not isinstance(configs, list):
        return None
    return [str(c.get("config_name")) for c in configs if isinstance(c, dict)]


def build_dataset(name: str, out: str | Path, source: Any = None, *, github_url: str | None = None,
                  progress: bool = True, **options: Any) -> dict[str, Any]:
    """Build ``name``'s dataset folder ``out``; ``source`` None downloads the upstream
    repositories at their pinned commits (every file the builder reads is verified)."""
    builder = importlib.import_module(BUILDABLE[name])
    if hasattr(builder, "REPOSITORIES"):  # the builder opens (downloads, verifies) on its own
        return builder.build(source, out, github_url=github_url, progress=progress, **options)
    if source is not None:
        return builder.build(source, out, **options)
    from . import upstream

    with upstream.downloaded(upstream.repositories(name), github_url=github_url,
                             progress=progress) as folder:
        return builder.build(folder, out, **options)


def _fingerprint(name: str) -> str:
    from . import __version__, upstream

    h = hashlib.sha256(__version__.encode())
    h.update(upstream.manifest_path(name).read_bytes())
    spec = importlib.util.find_spec(BUILDABLE[name])
    if spec is not None and spec.origin:
        h.update(Path(spec.origin).read_bytes())
    return h.hexdigest()[:16]


def _ready(folder: Path) -> bool:
    return (folder / "README.md").is_file()


def dataset_dir(name: str, *, github_url: str | None = None, quiet: bool = False) -> Path:
    """The cached dataset folder of ``name``, built on first use (see the module docstring)."""
    from . import upstream

    if name not in BUILDABLE:
        raise ValueError(f"no built-in dataset for {name!r}; known: {', '.join(BUILDABLE)} "
                         "(pass data_dir= / --data-dir for others)")
    target = private_dir("datasets") / name / _fingerprint(name)
    if _ready(target):
        return target
    import datasets

    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    bars = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()  # the download bar is the one worth showing
    try:
        try:
            build_dataset(name, tmp, github_url=github_url, progress=not quiet)
        except upstream.DownloadError as exc:
            raise DataUnavailable(
                f"the {name} dataset is not in the cache and its upstream archive cannot be "
                f"downloaded ({str(exc).split('. Without network')[0]}); build it from a local "
                f"copy with `qce build {name} --source PATH --out DIR` and pass --data-dir DIR "
                "(data_dir=DIR)") from None
        try:
            os.replace(tmp, target)
        except OSError:
            if not _ready(target):  # another process built it at the same time otherwise
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if bars:
            datasets.enable_progress_bars()
    if not quiet:
        print(f"qce: built the {name} dataset into {target} (first use; later runs reuse it)",
              file=sys.stderr)
    return target
