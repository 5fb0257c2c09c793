"""upstream.py: download from a mirror, cache, unpack safely, find local copies, verify every file.

The archives are the real ones (``../shared/upstream/github``, served as ``file://``)."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from quantum_codegen_eval import upstream
from quantum_codegen_eval.loaders import qcoder as qcoder_builder

pytestmark = pytest.mark.upstream

QCODER = qcoder_builder.REPOSITORIES["qcoder"]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("QCE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _mirror_archive(github_url: str, repo: upstream.Repo) -> Path:
    return Path(github_url.removeprefix("file://")) / repo.owner / repo.name / "tar.gz" / repo.commit


def test_blob_sha1_is_gits(tmp_path):
    f = tmp_path / "f.txt"
    f.write_bytes(b"line\r\nother\n\x00binary")
    git = subprocess.run(["git", "hash-object", str(f)], capture_output=True, text=True, check=True)
    assert upstream.git_blob_sha1(f.read_bytes()) == git.stdout.strip()


def test_download_is_cached_with_progress_and_checked_for_its_commit(github_url, cache, capfd):
    path = upstream.download(QCODER)
    assert path == cache / "downloads" / "github" / QCODER.owner / QCODER.name / f"{QCODER.commit}.tar.gz"
    assert path.read_bytes() == _mirror_archive(github_url, QCODER).read_bytes()
    assert "QCoder-Bench/QCoder-Benchmark@7bda889" in capfd.readouterr().err  # progress bar
    assert upstream.download(QCODER, "file:///nowhere") == path  # cached: no second download
    root = upstream.unpacked(QCODER)
    assert root.name == QCODER.top and (root / "codes" / "rules.txt").is_file()


def test_a_mirror_serving_another_commit_is_refused(github_url, cache, tmp_path):
    other = upstream.Repo(QCODER.owner, QCODER.name, "0" * 40)
    mirror = tmp_path / "mirror"
    dest = mirror / other.owner / other.name / "tar.gz" / other.commit
    dest.parent.mkdir(parents=True)
    shutil.copyfile(_mirror_archive(github_url, QCODER), dest)
    with pytest.raises(upstream.DownloadError, match=f"served commit {QCODER.commit}, not 0000"):
        upstream.download(other, mirror.as_uri(), progress=False)
    assert not upstream.archive_path(other).exists()


def test_offline_names_the_url_and_the_local_route(cache):
    manifest = upstream.load_manifest("qcoder")
    with pytest.raises(upstream.DownloadError) as err:
        with upstream.open_trees(manifest, github_url="file:///nonexistent/mirror", progress=False):
            pass
    msg = str(err.value)
    assert "file:///nonexistent/mirror/QCoder-Bench/QCoder-Benchmark/tar.gz/" in msg
    assert "--source" in msg and "\n" not in msg


def test_unsafe_archive_members_are_refused(tmp_path):
    archive = tmp_path / "evil.tar.gz"
    with tarfile.open(archive, "w:gz") as tf:
        data = b"x"
        info = tarfile.TarInfo("top/../../evil.txt")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    with pytest.raises(upstream.UpstreamError, match="unsafe path"):
        upstream.unpack(archive, tmp_path / "out")
    assert not (tmp_path / "evil.txt").exists()


def test_links_leaving_the_tree_are_not_extracted(tmp_path):
    archive = tmp_path / "links.tar.gz"
    with tarfile.open(archive, "w:gz") as tf:
        link = tarfile.TarInfo("top/passwd")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tf.addfile(link)
        ok = tarfile.TarInfo("top/ok.txt")
        ok.size = 2
        tf.addfile(ok, io.BytesIO(b"ok"))
    root = upstream.unpack(archive, tmp_path / "out")
    assert (root / "ok.txt").read_text() == "ok" and not (root / "passwd").is_symlink()


def _layouts(github_url: str, tmp: Path) -> dict[str, Path]:
    archive = _mirror_archive(github_url, QCODER)
    checkout = upstream.unpack(archive, tmp / "unpacked")  # QCoder-Benchmark-<commit>/
    several = tmp / "several"
    several.mkdir()
    (several / "QCoder-Benchmark").symlink_to(checkout, target_is_directory=True)
    (several / "unrelated").mkdir()
    archives = tmp / "archives"
    archives.mkdir()
    shutil.copyfile(archive, archives / "qcoder.tar.gz")
    return {"checkout": checkout, "folder holding several": several, "tar.gz": archive,
            "folder of archives": archives, "mirror layout": Path(github_url.removeprefix("file://"))}


def test_every_local_source_layout_gives_the_same_records(github_url, cache, tmp_path):
    downloaded = qcoder_builder.read_problems(None, progress=False)
    assert len(downloaded) == 67
    for name, source in _layouts(github_url, tmp_path).items():
        rows = qcoder_builder.read_problems(source, progress=False)
        assert rows == downloaded, name


def test_a_changed_file_is_named(github_url, tmp_path):
    root = upstream.unpack(_mirror_archive(github_url, QCODER), tmp_path / "copy")
    rules = root / "codes" / "rules.txt"
    rules.write_bytes(rules.read_bytes() + b"\n- You may import anything.\n")
    with pytest.raises(upstream.VerificationError,
                       match=r"QCoder-Bench/QCoder-Benchmark@7bda889413b5: codes/rules.txt does not "
                             r"match the manifest"):
        qcoder_builder.read_problems(root, progress=False)
    rules.unlink()
    with pytest.raises(upstream.UpstreamError, match="no copy of QCoder-Bench/QCoder-Benchmark"):
        qcoder_builder.read_problems(root, progress=False)


def test_a_verified_tree_hands_out_listed_files_only(github_url, cache):
    manifest = upstream.load_manifest("qcoder")
    with upstream.open_trees(manifest, progress=False) as trees:
        tree = trees["qcoder"]
        assert tree.glob("codes/Problems/QPC001_A*.txt")[0] == "codes/Problems/QPC001_A1.txt"
        assert len(tree.glob(qcoder_builder.PROBLEMS_GLOB)) == 67
        with pytest.raises(upstream.VerificationError, match="codes/keys.json is not in the manifest"):
            tree.read_bytes("codes/keys.json")


def test_manifest_round_trip_and_format():
    data = json.loads(upstream.manifest_path("qcoder").read_text())
    m = upstream.Manifest.from_dict(data)
    assert m.to_dict() == data
    assert m.problem("QPC002_B5")["path"] == "codes/Problems/QPC002_B5.txt"
    with pytest.raises(upstream.UpstreamError, match="format"):
        upstream.Manifest.from_dict({**data, "format": 99})
