"""`qce publish`: every check up to the upload call (the Hub is not reachable here)."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.cli import main
from quantum_codegen_eval.publish import DatasetFolderError, check_dataset_folder, publish


@pytest.fixture(scope="module")
def folder(upstream, tmp_path_factory):
    from quantum_codegen_eval.loaders.qiskit_humaneval import build

    out = tmp_path_factory.mktemp("he")
    build(upstream / "qiskit_humaneval", out)
    return out


class RecordingApi:
    """Stands in for huggingface_hub.HfApi at the network boundary; records the calls."""

    def __init__(self):
        self.calls = []

    def create_repo(self, repo_id, **kw):
        self.calls.append(("create_repo", repo_id, kw))

    def upload_folder(self, **kw):
        self.calls.append(("upload_folder", kw))
        return "commit-url"


def test_check_and_upload_calls(folder):
    assert check_dataset_folder(folder) == ["normal", "hard"]
    api = RecordingApi()
    msg = publish(folder, "someone/qiskit-humaneval", api=api)
    assert "configs: normal, hard" in msg
    assert api.calls[0] == ("create_repo", "someone/qiskit-humaneval",
                            {"repo_type": "dataset", "private": False, "exist_ok": True})
    assert api.calls[1][1]["folder_path"] == str(folder)
    assert api.calls[1][1]["repo_type"] == "dataset"


def test_dry_run_cli(folder, capsys):
    assert main(["publish", str(folder), "someone/x", "--dry-run"]) == 0
    assert "nothing uploaded" in capsys.readouterr().out


def test_broken_folders_are_refused_before_upload(folder, tmp_path):
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(folder, broken)
    for parquet in broken.rglob("*.parquet"):
        parquet.unlink()
    api = RecordingApi()
    with pytest.raises(DatasetFolderError, match="no file matches"):
        publish(broken, "someone/x", api=api)
    (broken / "README.md").write_text("no yaml here\n")
    with pytest.raises(DatasetFolderError, match="no YAML header"):
        publish(broken, "someone/x", api=api)
    with pytest.raises(ValueError, match="owner/name"):
        publish(folder, "no-owner", api=api)
    assert api.calls == []


def _qce(*args, env=None):
    import os
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "quantum_codegen_eval", *map(str, args)],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, **(env or {})})


def test_publish_offline_is_one_line(folder, tmp_path):
    """The Hub unreachable (a closed local port): one line, exit 1, no traceback."""
    proc = _qce("publish", folder, "someone/x",
                env={"HF_ENDPOINT": "http://127.0.0.1:9", "HF_TOKEN": "hf_notarealtoken",
                     "HF_HUB_ETAG_TIMEOUT": "2", "HF_HUB_DOWNLOAD_TIMEOUT": "2"})
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    lines = [line for line in proc.stderr.splitlines() if line.startswith("qce")]
    assert len(lines) == 1 and lines[0].startswith(
        f"qce publish: could not upload {folder} to datasets/someone/x: "), proc.stderr
    assert proc.stdout == ""


def test_dry_run_on_a_folder_without_a_licence_says_so(upstream, tmp_path):
    """QCoder's upstream material has no licence: the built card says ``license: unknown`` and
    ``--dry-run`` says the folder's material may not be redistributed; Apache-2.0 does not."""
    from quantum_codegen_eval.loaders.qcoder import build

    out = tmp_path / "qcoder"
    build(upstream / "qcoder", out)
    proc = _qce("publish", out, "someone/qcoder", "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == (
        f"warning: {out}'s card declares license: unknown: its upstream material has no licence "
        "that allows redistribution; publish it privately (--private) for your own use only, "
        "or not at all")


def test_dry_run_on_an_apache_folder_has_no_warning(folder):
    assert "warning" not in publish(folder, "someone/x", dry_run=True)
