"""Two real runs of the bundled sample's Qiskit half for the viewer's tests (tests/support/
view_runs.py): the sample's own predictions (``A``) and system ``B``'s, with injected markup."""

from __future__ import annotations

from pathlib import Path

import pytest
from view_runs import system_a, system_b


@pytest.fixture(scope="session")
def sample_runs(tmp_path_factory) -> dict[str, Path]:
    """Report folders ``A`` and ``B`` (real judging of the sample's Qiskit tasks)."""
    from quantum_codegen_eval.evaluate import evaluate
    from quantum_codegen_eval.execution import Sandbox

    root = tmp_path_factory.mktemp("view-runs")
    out = {}
    with Sandbox(workers=2) as sandbox:
        for name, rows in (("A", system_a()), ("B", system_b())):
            evaluate(rows, "sample", "qiskit", k=(1, 2), sandbox=sandbox).save(root / name)
            out[name] = root / name
    return out
