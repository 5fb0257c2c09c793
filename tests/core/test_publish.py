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
