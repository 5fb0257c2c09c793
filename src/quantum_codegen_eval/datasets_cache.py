"""The embedded default: a benchmark's dataset folder, built in the cache on first use.

``dataset_dir(benchmark)`` is what ``load_benchmark(name)``, ``evaluate(...)``, ``qce judge`` and
``qce evaluate`` use when no data folder is given: ``cache_dir("datasets")/<name>/<fingerprint>``
(closed to other users: the sandbox's user must not read expected outputs),
where the fingerprint covers the package version, the shipped manifest and the builder, so a
changed builder never serves a stale folder. ``benchmark`` is the benchmark's declaration
(``benchmarks.get(name)``): it names the builder module, so this room keeps no table of them;
the benchmarks built here are those whose upstream manifest ships with the package. The first use downloads the upstream archives at
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
from typing import Any, Protocol

from .cache import private_dir


class Buildable(Protocol):
    """What this room needs of a benchmark declaration (``benchmarks.base.Benchmark``)."""

    name: str
    builder: str | None


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
    return datasets.load_dataset(str(folder), config, split=split, cache_dir=hf_cache_for(folder))


def hf_cache_for(path: str | Path) -> str:
    """The ``datasets`` cache folder for a local dataset folder or file as it is now.

    ``datasets`` keys the cache of a local folder by its name and its files' relative patterns,
    not by its path or contents (datasets 5.2): two folders both named ``dataset``, or one folder
    rebuilt with other rows, read back the rows cached first (a PennySynth dataset built on
    PennyLane 0.42 read back as 0.45's). Here the key is the path and every file's name, size
    and modification time, so a rebuilt or another folder is read afresh."""
    path = Path(path).resolve()
    digest = hashlib.sha256(str(path).encode("utf-8", "surrogatepass"))
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for f in files:
        st = f.stat()
        digest.update(f"\0{f.relative_to(path) if path.is_dir() else f.name}\0{st.st_size}"
                      f"\0{st.st_mtime_ns}".encode("utf-8", "surrogatepass"))
    return str(private_dir("hf-datasets") / digest.hexdigest()[:24])


def _card_configs(card: Path) -> list[str] | None:
    """The ``config_name`` values of a card's YAML header (None when it has no readable one)."""
    from .dataset_cards import read_yaml_header

    try:
        meta = read_yaml_header(card.read_text(encoding="utf-8", errors="replace"))
    except ValueError:
        return None
    configs = meta.get("configs")
    if not isinstance(configs, list):
        return None
    return [str(c.get("config_name")) for c in configs if isinstance(c, dict)]


def from_upstream(benchmark: Buildable) -> bool:
    """Whether ``benchmark`` is built from upstream archives pinned by a shipped manifest."""
    from . import upstream

    return bool(benchmark.builder) and upstream.manifest_path(benchmark.name).is_file()


def _builder(benchmark: Buildable) -> Any:
    if isinstance(benchmark, str) or not from_upstream(benchmark):
        raise ValueError(f"no built-in dataset for {getattr(benchmark, 'name', benchmark)!r}: pass "
                         "a benchmark declaration (benchmarks.get(name)) whose upstream manifest "
                         "ships with the package, or data_dir= / --data-dir")
    return importlib.import_module(str(benchmark.builder))


def build_dataset(benchmark: Buildable, out: str | Path, source: Any = None, *,
                  github_url: str | None = None, progress: bool = True,
                  **options: Any) -> dict[str, Any]:
    """Build ``benchmark``'s dataset folder ``out`` with the builder its declaration names;
    ``source`` None downloads the upstream repositories at their pinned commits (every file the
    builder reads is verified)."""
    builder = _builder(benchmark)
    name = benchmark.name
    if hasattr(builder, "REPOSITORIES"):  # the builder opens (downloads, verifies) on its own
        return builder.build(source, out, github_url=github_url, progress=progress, **options)
    if source is not None:
        return builder.build(source, out, **options)
    from . import upstream

    with upstream.downloaded(upstream.repositories(name), github_url=github_url,
                             progress=progress) as folder:
        return builder.build(folder, out, **options)


def _fingerprint(benchmark: Buildable) -> str:
    from . import __version__, upstream

    h = hashlib.sha256(__version__.encode())
    h.update(upstream.manifest_path(benchmark.name).read_bytes())
    spec = importlib.util.find_spec(str(benchmark.builder))
    if spec is not None and spec.origin:
        h.update(Path(spec.origin).read_bytes())
    return h.hexdigest()[:16]


def _ready(folder: Path) -> bool:
    return (folder / "README.md").is_file()


def dataset_dir(benchmark: Buildable, *, github_url: str | None = None,
                quiet: bool = False) -> Path:
    """The cached dataset folder of ``benchmark`` (its declaration), built on first use (see the
    module docstring)."""
    from . import upstream

    _builder(benchmark)
    name = benchmark.name
    target = private_dir("datasets") / name / _fingerprint(benchmark)
    if _ready(target):
        return target
    import datasets

    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    bars = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()  # the download bar is the one worth showing
    try:
        try:
            build_dataset(benchmark, tmp, github_url=github_url, progress=not quiet)
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
