"""synthesize: a user's generator's answers become a validated PennySynth dataset, every
rejection counted by reason; resumable with nothing generated or judged twice."""

from __future__ import annotations

import json
from pathlib import Path

import pennylane
import pennysynth_user
import pytest

from quantum_codegen_eval.benchmarks import pennysynth
from quantum_codegen_eval.cli import main
from quantum_codegen_eval.synthesis import (
    REASONS,
    Seed,
    SynthesisInterrupted,
    corpus_seeds,
    parse_answer,
    requests,
    synthesize,
)
from quantum_codegen_eval.synthesis._run import _static

DATA = Path(__file__).parent / "data"
SAMPLE = DATA / "sample.jsonl"
PROBLEMS = DATA / "rag_problems.jsonl"


@pytest.fixture(scope="module")
def problems():
    return pennysynth.problems(data_dir=PROBLEMS)


def _seeds(problems) -> list[Seed]:
    """The corpus's entries and, as a QHack archive would be, the held-out problems."""
    return corpus_seeds(SAMPLE) + [Seed(f"problem:{p.id}", p.instruction, p.code, "qhack_archive")
                                   for p in problems.values()]


def test_answers_are_read_in_the_papers_shape():
    assert parse_answer("Instruction: Make a Bell pair.\n```python\nimport pennylane as qml\n```") == (
        "Make a Bell pair.", "import pennylane as qml\n")
    assert parse_answer("I cannot write this program.") is None
    assert parse_answer("```python\nx = 1\n```") is None  # no instruction


def test_requests_are_reproducible_and_show_their_seeds(problems):
    seeds = _seeds(problems)
    a = requests(seeds, 5, seed=3, pennylane_version="0.45.1")
    assert a == requests(seeds, 5, seed=3, pennylane_version="0.45.1")
    assert a != requests(seeds, 5, seed=4, pennylane_version="0.45.1")
    by = {s.id: s for s in seeds}
    for r in a:
        assert len(r.seeds) == 3
        assert all(by[s].code.rstrip() in r.prompt for s in r.seeds)
        assert r.prompt.index("Seed material") < r.prompt.index("Instruction: <the instruction>")


def test_checks_before_the_sandbox(problems):
    from quantum_codegen_eval.loaders.pennysynth import cluster_key
    from quantum_codegen_eval.synthesis._checks import contaminated

    v = pennylane.__version__
    existing = {cluster_key(s.code) for s in corpus_seeds(SAMPLE)}
    copy = corpus_seeds(SAMPLE)[0].code.replace("bell", "pair")  # renamed: still a copy
    cases = {"format": "no code here", "syntax": "Instruction: x\n```python\ndef f(:\n```",
             "hallucinated_api": "Instruction: x\n```python\nimport pennylane as qml\n"
                                 "qml.QuantumMagicGate(wires=0)\n```",
             "duplicate": f"Instruction: x\n```python\n{copy}```"}
    for reason, answer in cases.items():
        assert _static({"answer": answer}, v, existing)[0] == reason
    ok = "Instruction: x\n```python\nimport pennylane as qml\nqml.RX(0.1, wires=0)\n```"
    assert _static({"answer": ok}, v, existing)[0] == ""
    leak = problems["p-grover"].code.replace("oracle", "mark")
    flagged = contaminated([("a", leak), ("b", "import pennylane as qml\n")], {"pennysynth": problems})
    assert list(flagged) == ["a"] and flagged["a"].startswith("pennysynth/p-grover")


class Counting:
    """The user's generator, counting what it is asked; it can be stopped (Ctrl-C) mid-run."""

    def __init__(self, stop_after: int | None = None):
        self.asked: list[str] = []
        self.stop_after = stop_after

    def __call__(self, batch):
        if self.stop_after is not None and len(self.asked) >= self.stop_after:
            raise KeyboardInterrupt
        self.asked += [r.id for r in batch]
        return pennysynth_user.generate(batch)


def test_synthesize_counts_every_rejection_and_resumes(tmp_path, problems):
    out = tmp_path / "synth"
    kw = dict(out=out, n=36, corpus=SAMPLE, against={"pennysynth": problems}, batch_size=12,
              progress=False, workers=2, time_limit=10)
    first = Counting(stop_after=12)
    with pytest.raises(SynthesisInterrupted):
        synthesize(first, _seeds(problems), **kw)
    assert first.asked == [f"syn-{i:06d}" for i in range(12)]
    second = Counting()
    report = synthesize(second, _seeds(problems), **kw)
    assert second.asked == [f"syn-{i:06d}" for i in range(12, 36)]  # nothing asked twice
    c = report["rejected"]
    assert report["accepted"] + sum(c.values()) == report["requested"] == 36
    assert set(c) == set(REASONS)
    for reason in ("format", "syntax", "hallucinated_api", "duplicate", "contaminated", "failed"):
        assert c[reason] > 0, (reason, report)
    verdicts = [json.loads(x) for x in (out / "verified.jsonl").read_text().splitlines()]
    assert len(verdicts) == len({v["id"] for v in verdicts}) == 36
    failed = [v for v in verdicts if v["reason"] == "failed"]
    assert all("ValueError: bad wires" in v["message"] for v in failed)
    assert all("problem:" in " ".join(v["seeds"]) for v in verdicts if v["reason"] == "contaminated")
    # the dataset loads with the schema; every row verified on this PennyLane, no two alike
    rows = list(pennysynth.problems(data_dir=out / "dataset").values())
    assert len(rows) == report["accepted"] > 0
    assert all(r.verified and r.pennylane_version == pennylane.__version__ for r in rows)
    assert len({r.dedup_cluster for r in rows}) == len(rows)
    assert json.loads((out / "dataset" / "build_report.json").read_text()) == report
    # a third run judges nothing again and asks for nothing
    third = Counting()
    before = (out / "verified.jsonl").read_text()
    assert synthesize(third, _seeds(problems), **kw) == report
    assert third.asked == [] and (out / "verified.jsonl").read_text() == before


def test_cli_synthesize(tmp_path, capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "support"))
    code = main(["synthesize", "--generator", "pennysynth_user:generate", "--seeds", str(SAMPLE),
                 "--against", "pennysynth", "--data-dir", f"pennysynth={PROBLEMS}", "-n", "6",
                 "--out", str(tmp_path / "s"), "--no-progress", "--workers", "2"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    report = json.loads(captured.out)
    assert report["requested"] == 6 and report["accepted"] + sum(report["rejected"].values()) == 6
    assert main(["synthesize", "--generator", "pennysynth_user:nope", "--seeds", str(SAMPLE),
                 "-n", "1", "--out", str(tmp_path / "t")]) == 2
    assert "has no nope" in capsys.readouterr().err


@pytest.mark.slow  # a dask LocalCluster of two worker processes
def test_verification_on_a_dask_cluster_gives_the_same_verdicts(tmp_path, problems):
    distributed = pytest.importorskip("distributed")
    kw = dict(n=24, corpus=SAMPLE, against={"pennysynth": problems}, progress=False,
              time_limit=10)
    local = synthesize(pennysynth_user.generate, _seeds(problems), out=tmp_path / "local",
                       workers=2, **kw)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = synthesize(pennysynth_user.generate, _seeds(problems), out=tmp_path / "dask",
                            scheduler=cluster.scheduler_address, **kw)

    def outcomes(folder):
        return {(v["id"], v["reason"]) for v in map(json.loads, (folder / "verified.jsonl")
                                                      .read_text().splitlines())}

    assert outcomes(tmp_path / "dask") == outcomes(tmp_path / "local")
    assert remote == local
