"""A dataset folder is read as it is now: ``datasets`` keys the cache of a local folder by its
name and relative file patterns, so without our own key two folders both named ``dataset`` (or
one rebuilt with other rows of the same size) read back the rows cached first: a PennySynth
dataset built on one PennyLane read back with another's version (seen on Python 3.10)."""

from __future__ import annotations

import os

from quantum_codegen_eval.benchmarks import pennysynth
from quantum_codegen_eval.loaders.pennysynth import write_dataset

ROW = {"id": "a", "instruction": "Prepare |+>.", "code": "import pennylane as qml\n",
       "source_category": "community_github", "pennylane_version": "0.41.0",
       "verification_status": "passed", "dedup_cluster": "c", "source_ref": "", "cluster_size": 1}


def _versions(folder):
    return [r.pennylane_version for r in pennysynth.problems(data_dir=folder).values()]


def test_two_folders_of_one_name_are_read_each(tmp_path):
    one, other = tmp_path / "one" / "dataset", tmp_path / "other" / "dataset"
    write_dataset([ROW], one)
    write_dataset([{**ROW, "pennylane_version": "0.42.3"}], other)
    assert _versions(one) == ["0.41.0"]
    assert _versions(other) == ["0.42.3"]  # same name, same sizes: the cache served "0.41.0"


def test_a_folder_rebuilt_in_place_is_read_afresh(tmp_path):
    folder = tmp_path / "dataset"
    write_dataset([ROW], folder)
    assert _versions(folder) == ["0.41.0"]
    write_dataset([{**ROW, "pennylane_version": "0.45.1"}], folder)
    parquet = next((folder / "data").glob("*.parquet"))
    st = parquet.stat()
    os.utime(parquet, ns=(st.st_atime_ns, st.st_mtime_ns + 1))  # even within the clock's tick
    assert _versions(folder) == ["0.45.1"]
