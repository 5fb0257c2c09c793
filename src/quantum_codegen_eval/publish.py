"""``qce publish``: push a built dataset folder to the Hugging Face Hub.

The folder is checked first, the way the Hub viewer will read it: a ``README.md`` whose YAML
header declares ``configs`` with ``data_files``, every listed Parquet file present, and every
config loadable with ``datasets.load_dataset(folder, config)``. Only then is it uploaded with
``huggingface_hub.HfApi.upload_folder`` (token from ``HF_TOKEN`` or ``huggingface-cli login``).
"""

from __future__ import annotations

import glob
from pathlib import Path
from typing import Any


class DatasetFolderError(ValueError):
    """The folder is not a Hub-ready dataset folder; the message says what is wrong."""


class UploadFailed(RuntimeError):
    """The Hub could not be reached or refused the upload; the message is one line."""


#: card licences that do not allow redistribution (upstream carries no licence)
NOT_REDISTRIBUTABLE = {None, "", "unknown", "other"}


def licence_note(folder: str | Path) -> str:
    """A warning when the card declares no licence that allows redistribution, else ''."""
    licence = read_card_yaml(folder).get("license")
    if licence not in NOT_REDISTRIBUTABLE:
        return ""
    return (f"warning: {folder}'s card declares license: {licence or 'none'}: its upstream "
            "material has no licence that allows redistribution; publish it privately "
            "(--private) for your own use only, or not at all")


def read_card_yaml(folder: str | Path) -> dict[str, Any]:
    """The YAML header of ``folder/README.md``."""
    from .dataset_cards import read_yaml_header

    card = Path(folder) / "README.md"
    if not card.is_file():
        raise DatasetFolderError(f"{folder}: no README.md dataset card")
    try:
        return read_yaml_header(card.read_text(encoding="utf-8"))
    except ValueError as exc:  # UnicodeDecodeError included
        raise DatasetFolderError(f"{card}: {exc}") from exc


def check_dataset_folder(folder: str | Path, *, load: bool = True) -> list[str]:
    """Validate a dataset folder; returns the config names (raises DatasetFolderError)."""
    folder = Path(folder)
    meta = read_card_yaml(folder)
    configs = meta.get("configs")
    if not configs:
        raise DatasetFolderError(f"{folder}/README.md: YAML declares no 'configs'")
    names = []
    for cfg in configs:
        name = cfg.get("config_name")
        files = cfg.get("data_files")
        if not name or not files:
            raise DatasetFolderError(f"{folder}/README.md: config {cfg!r} lacks config_name or data_files")
        entries = files if isinstance(files, list) else [files]
        for entry in entries:
            paths = entry.get("path") if isinstance(entry, dict) else entry
            for pattern in paths if isinstance(paths, list) else [paths]:
                if not glob.glob(str(folder / pattern)):
                    raise DatasetFolderError(f"{folder}: config {name!r}: no file matches {pattern!r}")
        names.append(name)
    if load:
        import tempfile

        import datasets

        # a fresh cache: datasets may otherwise serve an earlier build of a folder at the same
        # place (seen with rewritten Parquet files), and the check must read the files as they are
        with tempfile.TemporaryDirectory(prefix="qce-check-") as cache:
            for name in names:
                try:
                    datasets.load_dataset(str(folder), name, cache_dir=cache)
                except Exception as exc:
                    raise DatasetFolderError(f"{folder}: config {name!r} does not load: "
                                             f"{exc}") from exc
    return names


def publish(folder: str | Path, hub_id: str, *, private: bool = False, dry_run: bool = False,
            api: Any = None, token: str | None = None) -> str:
    """Check ``folder`` and upload it as dataset ``hub_id``; returns a one-line summary."""
    if "/" not in hub_id:
        raise ValueError(f"hub id {hub_id!r} must be 'owner/name'")
    configs = check_dataset_folder(folder)
    note = licence_note(folder)
    note = f"\n{note}" if note else ""
    if dry_run:
        return (f"{folder}: ready for {hub_id} (configs: {', '.join(configs)}); nothing "
                f"uploaded{note}")
    if api is None:
        from huggingface_hub import HfApi

        api = HfApi(token=token)
    try:
        api.create_repo(hub_id, repo_type="dataset", private=private, exist_ok=True)
        commit = api.upload_folder(folder_path=str(folder), repo_id=hub_id, repo_type="dataset",
                                   commit_message="Upload dataset built with quantum-codegen-eval")
    except Exception as exc:  # noqa: BLE001 - network, authentication, Hub refusals: one line
        first = (str(exc).strip().splitlines() or [""])[0][:300]
        raise UploadFailed(f"could not upload {folder} to datasets/{hub_id}: "
                           f"{type(exc).__name__}: {first} (network and token: `hf auth "
                           "login` or HF_TOKEN)") from None
    return (f"uploaded {folder} to datasets/{hub_id} (configs: {', '.join(configs)}): "
            f"{commit}{note}")
