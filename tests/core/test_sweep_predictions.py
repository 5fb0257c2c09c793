"""``timing/sweep.py --predictions DIR``: the synthetic sweep's predictions, one file per system,
which ``evaluate`` reads as it reads a user's (the paper walk in docs/benchmarks/sweep.md)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from quantum_codegen_eval.predictions import read_predictions

SWEEP = Path(__file__).resolve().parents[2] / "timing" / "sweep.py"


def _sweep():
    spec = importlib.util.spec_from_file_location("sweep_timing", SWEEP)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_one_file_per_system_each_with_every_sample(tmp_path):
    sweep = _sweep()
    pools = {"2023/a": sweep.Pool(good=["x = 1\n"], wrong=["x = 2\n"]),
             "2024/b": sweep.Pool(wrong=["y = 0\n"], broken=["def f(:\n"])}
    rows, kinds = sweep.predictions(pools, systems=3, samples=4, repeat=0.6, seed=0)
    sweep.write_predictions(rows, 4, tmp_path)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["system-0.jsonl", "system-1.jsonl", "system-2.jsonl"]
    for s in range(3):
        samples = read_predictions(str(tmp_path / f"system-{s}.jsonl"))
        assert [(x.problem_id, x.index) for x in samples] == [
            (cid, j) for cid in pools for j in range(4)]
        mine = [r for r in rows if r["sample"] // 4 == s]  # the same completions, in order
        assert [x.completion for x in samples] == [r["completion"] for r in mine]
    assert len(kinds) == 3 * 4 * 2
