"""Issue 36: no single completion takes the evaluator over 500 MB of RSS (its own process or a
trusted job) or a few seconds of scoring, in any judge; past a size cap it is a verdict.

Each case is ``timing/completion_bounds.py``'s: worst-case completions of three of its kinds just
under and just over each benchmark's cap (and values just under and over what crosses to the trusted
stage), each evaluated through the real sandbox in a fresh process, whose peak RSS is read as its
``VmHWM`` (``cb.run_case``: tests/support/peak_rss.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

# loaded by path: the timing folder on sys.path would shadow other tests' imports
_spec = importlib.util.spec_from_file_location(
    "_completion_bounds", Path(__file__).resolve().parents[2] / "timing" / "completion_bounds.py")
cb = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = cb
_spec.loader.exec_module(cb)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def data_dirs(github_url, tmp_path_factory):
    return cb.build(tmp_path_factory.mktemp("bounds"), list(cb.PROBLEMS))


#: the kinds the test runs (each under and over every cap; about 25 s a case here): the costliest
#: to parse (nested brackets), to print and to return. ``timing/completion_bounds.py`` runs all
#: seven kinds (the figures in the benchmark pages)
KINDS = ("nested", "huge_print", "huge_return")
CASES = cb.cases(kinds=KINDS)


@pytest.mark.parametrize(("bench", "kind", "size"), CASES,
                         ids=[f"{b}-{k}-{s}" for b, k, s in CASES])
def test_one_completion_stays_within_the_bounds(data_dirs, bench, kind, size):
    r = cb.run_case(bench, kind, size, data_dirs[bench])
    assert r["parent_mb"] < cb.MAX_RSS_MB, r
    assert r["trusted_mb"] < cb.MAX_RSS_MB, r
    assert r["score_total_cpu_s"] < cb.MAX_SCORE_CPU_S, r
    cap = cb.caps()[bench]
    if kind != "huge_return" and size > cap:  # past the cap: a verdict naming it, never run
        if bench == "qhack":
            assert (r["status"], r["reason"]) == ("FORMAT", "too_large"), r
        else:
            assert r["judge_limitation"] == "code_size", r
        assert r["jobs"] == [], r
    if kind == "huge_return" and size == cb.HUGE_N[bench][1] and bench.startswith(("qiskit",
                                                                                    "quantum")):
        assert r["judge_limitation"] == "transport", r  # the circuit is not carried
    assert not r["judge_error"] or r["judge_limitation"], r  # never the evaluator's failure
