"""Upstream repositories: download at a pinned commit, cache, unpack, verify against a manifest.

This layer knows archives, commits and files, nothing of what they are for. A builder never
reads loose files: it opens the upstream repositories named by a **manifest** (shipped as
``quantum_codegen_eval/data/manifests/<name>.json``; a benchmark's builder names its own) and reads
through a :class:`Tree`, which hands out only files the manifest lists, each checked against its
git blob SHA-1 (a mismatch is an :class:`VerificationError` naming the file).

Manifest format (``format: 1``)::

    {
      "format": 1,
      "name": "<name>",                       # the file's name, nothing more
      "generated_by": "<what wrote it>",      # free text
      "repositories": {                       # key -> one repository at one commit
        "main": {"repo": "<owner>/<repo>", "commit": "<40 hex>",
                 "files": {"<path>": "<git blob sha1>", ...}}
      },
      "problems": [                           # facts per problem, owned by the builder
        {"id": "<problem id>", "repository": "main", "path": "<file in that repository>", ...}
      ]
    }

``files`` is exactly the set of files the builder read when the manifest was generated
(``loaders/make_manifest.py`` opens unverified trees, which record every read).

API::

    Repo(owner, name, commit)              .slug, .top, .url(base)
    load_manifest(name) -> Manifest        .repositories {key: Repo}, .files {key: {path: sha}},
                                           .problems [dict], .problem(id)
    repositories(name) -> {key: Repo}       just the pins (any manifest version)
    downloaded(repos, github_url=None, progress=True)
        context manager -> a folder holding each repository unpacked (from the cache)
    open_trees(manifest, source=None, *, github_url=None, progress=True)
        context manager -> {key: Tree}; source None: download (cached) at the pinned commit from
        github_url / $QCE_GITHUB_URL / https://codeload.github.com; else a checkout, an unpacked
        archive, a folder holding several of those (or archives), or a .tar.gz
    open_unverified(repos: {key: Repo}, source=None, ...) -> {key: Tree}  (for the generator)
    Tree.read_bytes(path) / .read_text(path) / .glob(pattern) / .exists(path) / .commit
    Tree.reads -> {path: sha}               files read so far (unverified trees record these)
    download(repo, github_url=None, progress=True) -> Path   the cached archive
    unpack(archive, dest) -> Path           safe extraction; returns the single top folder
    git_blob_sha1(data) -> str

Errors all derive from :class:`UpstreamError` (a ``ValueError``, so ``qce`` prints one line):
:class:`DownloadError` (names the URL and says how to build offline), :class:`VerificationError`.

>>> git_blob_sha1(b"hello\\n")
'ce013625030ba8dba906f756967f9e9ca394464a'
>>> Repo("QCoder-Bench", "QCoder-Benchmark", "7bda889413b5123ca46960b9af11c4ab0d508e88").url("file:///m")
'file:///m/QCoder-Bench/QCoder-Benchmark/tar.gz/7bda889413b5123ca46960b9af11c4ab0d508e88'
"""

from __future__ import annotations

import contextlib
import fnmatch
import hashlib
import json
import os
import shutil
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Any

from .cache import private_dir

DEFAULT_GITHUB_URL = "https://codeload.github.com"
GITHUB_URL_ENV = "QCE_GITHUB_URL"
MANIFEST_FORMAT = 1
_CHUNK = 1 << 16


class UpstreamError(ValueError):
    """Upstream material cannot be fetched or read; the message says which and what to do."""


class DownloadError(UpstreamError):
    """The archive could not be downloaded (offline, wrong mirror, HTTP error)."""


class VerificationError(UpstreamError):
    """A file differs from the manifest (or is missing); the message names it."""


def git_blob_sha1(data: bytes) -> str:
    """The git object id of a file with these bytes (``git hash-object``)."""
    h = hashlib.sha1(b"blob %d\0" % len(data))
    h.update(data)
    return h.hexdigest()


def github_url(override: str | None = None) -> str:
    """The download base: ``override``, else ``$QCE_GITHUB_URL``, else codeload.github.com."""
    return (override or os.environ.get(GITHUB_URL_ENV) or DEFAULT_GITHUB_URL).rstrip("/")


@dataclass(frozen=True)
class Repo:
    """One GitHub repository at one commit."""

    owner: str
    name: str
    commit: str

    @classmethod
    def parse(cls, slug: str, commit: str) -> Repo:
        owner, _, name = slug.partition("/")
        if not owner or not name or len(commit) != 40:
            raise UpstreamError(f"bad repository {slug!r} at {commit!r}")
        return cls(owner, name, commit)

    @property
    def slug(self) -> str:
        return f"{self.owner}/{self.name}"

    @property
    def top(self) -> str:
        """The single top folder of GitHub's source archive."""
        return f"{self.name}-{self.commit}"

    def url(self, base: str | None = None) -> str:
        return f"{github_url(base)}/{self.owner}/{self.name}/tar.gz/{self.commit}"


# --------------------------------------------------------------------------- manifests

@dataclass
class Manifest:
    """The pinned repositories and the verified files of one manifest (``name``: its file's
    name); ``problems`` are facts its builder owns, passed through untouched."""

    name: str
    repositories: dict[str, Repo]
    files: dict[str, dict[str, str]]
    problems: list[dict[str, Any]] = field(default_factory=list)
    generated_by: str = ""

    def problem(self, problem_id: str) -> dict[str, Any]:
        for p in self.problems:
            if p["id"] == problem_id:
                return p
        raise KeyError(f"{self.name} manifest: no problem {problem_id!r}")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Manifest:
        if data.get("format") != MANIFEST_FORMAT:
            raise UpstreamError(f"manifest format {data.get('format')!r} is not {MANIFEST_FORMAT}")
        repos, files = {}, {}
        for key, spec in data["repositories"].items():
            repos[key] = Repo.parse(spec["repo"], spec["commit"])
            files[key] = dict(spec["files"])
        return cls(data["name"], repos, files, list(data.get("problems", [])),
                   data.get("generated_by", ""))

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": MANIFEST_FORMAT,
            "name": self.name,
            "generated_by": self.generated_by,
            "repositories": {k: {"repo": r.slug, "commit": r.commit,
                                 "files": dict(sorted(self.files[k].items()))}
                             for k, r in self.repositories.items()},
            "problems": self.problems,
        }


def manifest_path(name: str):
    return resources.files("quantum_codegen_eval") / "data" / "manifests" / f"{name}.json"


def repositories(name: str) -> dict[str, Repo]:
    """The pinned repositories of the shipped manifest ``name`` (only its ``repositories``
    table is read, ``{key: {"repo", "commit", ...}}``, so any manifest version will do)."""
    path = manifest_path(name)
    if not path.is_file():
        raise UpstreamError(f"no upstream manifest {name!r} in this package")
    table = json.loads(path.read_text(encoding="utf-8"))["repositories"]
    return {key: Repo.parse(spec["repo"], spec["commit"]) for key, spec in table.items()}


def load_manifest(name: str) -> Manifest:
    """The shipped manifest ``name``."""
    path = manifest_path(name)
    if not path.is_file():
        raise UpstreamError(f"no upstream manifest {name!r} in this package")
    return Manifest.from_dict(json.loads(path.read_text(encoding="utf-8")))


# --------------------------------------------------------------------------- trees

class Tree:
    """Read access to one repository's files.

    Verified (``files`` given): only listed files can be read, each checked against its blob
    SHA-1 on first read; ``glob`` matches the listed paths. Unverified (``files`` None): any file
    under the root; every read is recorded in ``reads``.
    """

    def __init__(self, repo: Repo, root: Path, files: Mapping[str, str] | None = None):
        self.repo, self.root = repo, Path(root)
        self.files = dict(files) if files is not None else None
        self.reads: dict[str, str] = {}

    @property
    def commit(self) -> str:
        return self.repo.commit

    def _where(self, path: str) -> str:
        return f"{self.repo.slug}@{self.repo.commit[:12]}: {path}"

    def exists(self, path: str) -> bool:
        if self.files is not None:
            return path in self.files
        return (self.root / path).is_file()

    def read_bytes(self, path: str) -> bytes:
        path = str(PurePosixPath(path))
        if self.files is not None and path not in self.files:
            raise VerificationError(f"{self._where(path)} is not in the manifest "
                                    "(the builder may only read listed files)")
        try:
            data = (self.root / path).read_bytes()
        except OSError as exc:
            raise VerificationError(f"{self._where(path)} is missing under {self.root} "
                                    f"({exc.strerror})") from exc
        sha = git_blob_sha1(data)
        if self.files is not None and sha != self.files[path]:
            raise VerificationError(
                f"{self._where(path)} does not match the manifest (git blob {sha}, expected "
                f"{self.files[path]}): {self.root / path} is not the file at the pinned commit")
        self.reads[path] = sha
        return data

    def read_text(self, path: str) -> str:
        data = self.read_bytes(path)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UpstreamError(f"{self._where(path)} is not UTF-8 (byte {exc.start})") from exc

    def glob(self, pattern: str) -> list[str]:
        """Sorted repository-relative paths matching ``pattern`` (``fnmatch``; ``*`` spans /)."""
        if self.files is not None:
            names = self.files
        else:
            names = (p.relative_to(self.root).as_posix()
                     for p in self.root.rglob("*") if p.is_file())
        return sorted(n for n in names if fnmatch.fnmatchcase(n, pattern))

    def verify_all(self) -> None:
        for path in self.files or ():
            self.read_bytes(path)


# --------------------------------------------------------------------------- download / unpack

def _progress(total: int | None, desc: str, enabled: bool):
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return None
    return tqdm(total=total, desc=desc, unit="B", unit_scale=True, unit_divisor=1024,
                file=sys.stderr, leave=False)


def _downloads() -> Path:
    return private_dir("downloads") / "github"


def archive_path(repo: Repo) -> Path:
    """Where the archive of ``repo`` is cached."""
    return _downloads() / repo.owner / repo.name / f"{repo.commit}.tar.gz"


def download(repo: Repo, github_url_: str | None = None, *, progress: bool = True) -> Path:
    """The cached source archive of ``repo`` at its commit, downloading it when absent."""
    dest = archive_path(repo)
    if dest.is_file():
        return dest
    url = repo.url(github_url_)
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".part-", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            try:
                resp = urllib.request.urlopen(url, timeout=60)  # noqa: S310 - http(s)/file only
            except (urllib.error.URLError, OSError, ValueError) as exc:
                reason = getattr(exc, "reason", None) or exc
                raise DownloadError(f"cannot download {url}: {reason}") from exc
            with resp:
                total = resp.headers.get("Content-Length")
                bar = _progress(int(total) if total and total.isdigit() else None,
                                f"{repo.slug}@{repo.commit[:7]}", progress)
                try:
                    while chunk := resp.read(_CHUNK):
                        out.write(chunk)
                        if bar is not None:
                            bar.update(len(chunk))
                except OSError as exc:
                    raise DownloadError(f"download of {url} broke off: {exc}") from exc
                finally:
                    if bar is not None:
                        bar.close()
        commit = archive_commit(Path(tmp))
        if commit is not None and commit != repo.commit:
            raise DownloadError(f"{url} served commit {commit}, not {repo.commit}")
        os.replace(tmp, dest)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return dest


def archive_commit(archive: Path) -> str | None:
    """The commit recorded in a ``git archive`` tarball's pax header (None when absent)."""
    try:
        with tarfile.open(archive, "r:*") as tf:
            tf.next()
            comment = tf.pax_headers.get("comment", "")
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise UpstreamError(f"{archive}: not a readable .tar.gz archive ({exc})") from exc
    return comment if len(comment) == 40 else None


def _safe_members(tf: tarfile.TarFile, where: str) -> Iterator[tarfile.TarInfo]:
    for m in tf.getmembers():
        p = PurePosixPath(m.name)
        if p.is_absolute() or ".." in p.parts:
            raise UpstreamError(f"{where}: unsafe path {m.name!r} in archive")
        if m.issym() or m.islnk():
            target = PurePosixPath(m.linkname)
            if target.is_absolute() or ".." in (p.parent / target).parts:
                continue  # a link leaving its folder is skipped, never followed
            if m.islnk():
                continue
        elif not (m.isfile() or m.isdir()):
            continue  # devices, fifos
        m.mode = (m.mode | 0o644) & 0o755 if m.isfile() else 0o755
        m.uid = m.gid = os.geteuid()
        m.uname = m.gname = ""
        yield m


def unpack(archive: str | Path, dest: str | Path) -> Path:
    """Extract ``archive`` into the new folder ``dest``; returns its single top folder
    (or ``dest`` when the archive has several)."""
    archive, dest = Path(archive), Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    try:
        with tarfile.open(archive, "r:*") as tf:
            tf.extractall(dest, members=_safe_members(tf, str(archive)))  # noqa: S202
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise UpstreamError(f"{archive}: cannot unpack ({exc})") from exc
    tops = [p for p in dest.iterdir()]
    return tops[0] if len(tops) == 1 and tops[0].is_dir() else dest


def unpacked(repo: Repo, github_url_: str | None = None, *, progress: bool = True) -> Path:
    """The root of ``repo`` unpacked in the cache (downloaded first when needed)."""
    target = archive_path(repo).parent / repo.top
    if target.is_dir():
        return target
    archive = download(repo, github_url_, progress=progress)
    tmp = Path(tempfile.mkdtemp(prefix=".unpack-", dir=target.parent))
    try:
        root = unpack(archive, tmp)
        try:
            os.replace(root, target)
        except OSError:
            if not target.is_dir():  # another process won the race otherwise
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


# --------------------------------------------------------------------------- local sources

def _holds(folder: Path, probe: str | None) -> bool:
    return folder.is_dir() and (probe is None or (folder / probe).is_file())


def _locate(source: Path, repo: Repo, probe: str | None, scratch: Path) -> Path | None:
    """The root of ``repo`` inside a local ``source`` (see :func:`open_trees`)."""
    if source.is_file():
        root = unpack(source, Path(tempfile.mkdtemp(dir=scratch)))
        return _locate(root, repo, probe, scratch) if not _holds(root, probe) else root
    if not source.is_dir():
        return None
    if _holds(source, probe) and (probe is not None or source.name in (repo.top, repo.name)):
        return source
    named = [source / repo.top, source / repo.name,
             source / repo.owner / repo.name / "tar.gz" / repo.commit]  # a mirror of codeload
    for cand in named:
        if cand.is_file():
            return _locate(cand, repo, probe, scratch)
        if _holds(cand, probe):
            return cand
    if probe is None:
        return None
    for child in sorted(source.iterdir()):
        if child.is_dir() and _holds(child, probe):
            return child
    for child in sorted(source.iterdir()):
        if child.is_file() and child.name.endswith((".tar.gz", ".tgz")):
            with contextlib.suppress(UpstreamError):
                root = _locate(child, repo, probe, scratch)
                if root is not None and _holds(root, probe):
                    return root
    return None


def _roots(repos: Mapping[str, Repo], probes: Mapping[str, str | None], source: Any,
           github_url_: str | None, progress: bool, scratch: Path) -> dict[str, Path]:
    roots = {}
    for key, repo in repos.items():
        if source is None:
            try:
                roots[key] = unpacked(repo, github_url_, progress=progress)
            except DownloadError as exc:
                raise DownloadError(f"{exc}. Without network, download "
                                    f"https://github.com/{repo.slug}/archive/{repo.commit}.tar.gz "
                                    "elsewhere and pass it (or a checkout) with --source") from exc
            continue
        root = _locate(Path(source), repo, probes.get(key), scratch)
        if root is None:
            raise UpstreamError(f"{source}: no copy of {repo.slug} found (looked for a checkout, "
                                f"{repo.top}/, {repo.name}/ or a .tar.gz holding "
                                f"{probes.get(key) or 'it'})")
        roots[key] = root
    return roots


def _probe(files: Mapping[str, str]) -> str | None:
    return min(files, key=lambda p: (p.count("/"), p)) if files else None


@contextlib.contextmanager
def open_trees(manifest: Manifest, source: Any = None, *, github_url: str | None = None,
               progress: bool = True) -> Iterator[dict[str, Tree]]:
    """Verified trees of every repository of ``manifest`` (every listed file checked up front).

    ``source`` None: each archive is downloaded once into the cache and unpacked there. Else a
    local path: a git checkout, an unpacked archive, a folder holding several of those (or their
    ``.tar.gz`` files), or one ``.tar.gz``.
    """
    with tempfile.TemporaryDirectory(prefix="qce-upstream-") as scratch:
        probes = {k: _probe(f) for k, f in manifest.files.items()}
        roots = _roots(manifest.repositories, probes, source, github_url, progress, Path(scratch))
        trees = {k: Tree(manifest.repositories[k], roots[k], manifest.files[k]) for k in roots}
        for tree in trees.values():
            tree.verify_all()
        yield trees


@contextlib.contextmanager
def downloaded(repos: Mapping[str, Repo], *, github_url: str | None = None,
               progress: bool = True) -> Iterator[Path]:
    """A temporary folder holding each repository unpacked (``<repo>-<commit>/``, linked from the
    cache), downloaded first when needed: a ``source`` for builders that verify on their own."""
    with tempfile.TemporaryDirectory(prefix="qce-upstream-") as scratch:
        roots = _roots(repos, {}, None, github_url, progress, Path(scratch))
        folder = Path(scratch) / "repositories"
        folder.mkdir()
        for key, root in roots.items():
            (folder / repos[key].top).symlink_to(root, target_is_directory=True)
        yield folder


@contextlib.contextmanager
def open_unverified(repos: Mapping[str, Repo], source: Any = None, *,
                    github_url: str | None = None, probes: Mapping[str, str] | None = None,
                    progress: bool = True) -> Iterator[dict[str, Tree]]:
    """Trees that read anything and record every read (for ``loaders/make_manifest.py``)."""
    with tempfile.TemporaryDirectory(prefix="qce-upstream-") as scratch:
        roots = _roots(repos, probes or {}, source, github_url, progress, Path(scratch))
        yield {k: Tree(repos[k], roots[k]) for k in roots}
