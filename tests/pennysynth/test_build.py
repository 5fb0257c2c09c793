"""The offline pipeline on a small part of the installed PennyLane, through the real sandbox."""

from __future__ import annotations

import json

import datasets
import pennylane
import pytest

from quantum_codegen_eval.benchmarks import pennysynth as ps
from quantum_codegen_eval.loaders import pennysynth as builder

MODULE = "pennylane.ops.qubit.parametric_ops_single_qubit"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("pennysynth")
    summary = builder.build(None, out, modules=MODULE, time_limit="20")
    return out, summary


def test_counts_add_up_and_the_folder_loads(built):
    out, summary = built
    c = summary["counts"]
    assert c["found"] >= 10
    assert c["found"] == c["passed"] + c["failed"] + c["timeout"]
    assert 0 < c["kept"] <= c["passed"] and c["duplicates_removed"] == c["passed"] - c["kept"]
    ds = datasets.load_dataset(str(out), split="train")
    assert ds.num_rows == c["kept"]
    rows = list(ps.problems(data_dir=out).values())
    assert all(r.verified and r.pennylane_version == pennylane.__version__ for r in rows)
    assert all(r.source_category == "official_docs" and r.source_ref.startswith(MODULE)
               for r in rows)
    assert len({r.dedup_cluster for r in rows}) == len(rows)
    assert sum(r.cluster_size for r in rows) == c["passed"]
    # instructions name the public object: `qml.RX.compute_matrix`, not the module path
    assert all(r.instruction.startswith("`qml.") for r in rows)
    assert not any("parametric_ops_single_qubit" in r.instruction.split(":")[0] for r in rows)
    assert all("import pennylane as q" in r.code for r in rows if "qml." in r.code or "qp." in r.code)


def test_failures_are_real_and_reported(built):
    out, summary = built
    report = json.loads((out / "build_report.json").read_text())
    assert report["counts"] == summary["counts"]
    assert len(report["failures"]) == summary["counts"]["found"] - summary["counts"]["passed"]
    # these docstrings show torch/tf interfaces, which are not installed here
    assert any("torch" in why for why in report["failures"].values())


@pytest.mark.slow  # several seconds of real processes: not in the fast tier
def test_verify_runs_each_candidate():
    good = builder.Candidate("g", "g", "", "import pennylane as qml\nqml.RX(0.1, wires=0).matrix()\n")
    bad = builder.Candidate("b", "b", "", "import pennylane as qml\nqml.RX(0.1, wires=0).nope()\n")
    slow = builder.Candidate("s", "s", "", "while True:\n    pass\n")
    builder.verify([good, bad, slow], time_limit=1.5)
    assert (good.status, bad.status, slow.status) == ("passed", "failed", "timeout")
    assert "AttributeError" in bad.message


def test_deduplicate_keeps_the_first_of_each_cluster():
    a = builder.Candidate("a", "a", "", "import pennylane as qml\nqml.RX(0.1, wires=0)\n")
    b = builder.Candidate("b", "b", "", "import pennylane as qml\nqml.RX(0.9,  wires=0)  # hi\n")
    c = builder.Candidate("c", "c", "", "import pennylane as qml\nqml.RX(0.1, wires=1)\n")
    kept = builder.deduplicate([a, b, c])
    assert [k.id for k in kept] == ["a", "c"] and a.extra["cluster_size"] == 2
    assert a.cluster == b.cluster != c.cluster
