"""synthesize: a user's generator's answers become a validated PennySynth dataset, every
rejection counted by reason; resumable with nothing generated or judged twice."""

from __future__ import annotations

import json
import re
from itertools import combinations
from pathlib import Path

import pennylane
import pennysynth_user
import pytest

from quantum_codegen_eval.benchmarks import pennysynth
from quantum_codegen_eval.cli import main
from quantum_codegen_eval.neardup import DEFAULT_THRESHOLD, NearDuplicateIndex, similarity
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


def _corpus_index(threshold: float = DEFAULT_THRESHOLD) -> NearDuplicateIndex:
    """The sample corpus as synthesize indexes its ``corpus``."""
    index = NearDuplicateIndex(threshold=threshold)
    for s in corpus_seeds(SAMPLE):
        index.add(s.id, s.code)
    return index


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
    from quantum_codegen_eval.synthesis._checks import contaminated

    v = pennylane.__version__
    existing = _corpus_index()
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


def _answer(code: str) -> str:
    return f"Instruction: x\n```python\n{code}```\n"


def _circuit(wires: int) -> str:
    """The user generator's new circuit on ``wires`` wires (its kinds 5 to 11)."""
    key = next(f"syn-{i:06d}" for i in range(12) if pennysynth_user._kind(f"syn-{i:06d}") == wires + 3)
    parsed = parse_answer(pennysynth_user.answer(key, "a prompt without seed blocks"))
    assert parsed is not None
    return parsed[1]


def test_near_duplicates_of_a_corpus_entry_are_rejected_naming_the_entry_and_score():
    v = pennylane.__version__
    existing = _corpus_index()
    entry = next(s.code for s in corpus_seeds(SAMPLE) if s.id == "ps-0005")
    renamed = entry
    for old, new in (("x", "angle"), ("cost", "energy"), ("opt", "optimiser"), ("dev", "device")):
        renamed = re.sub(rf"\b{old}\b", new, renamed)
    line_added = entry.replace("    qml.RY(x, wires=0)\n",
                               "    qml.RY(x, wires=0)\n    qml.Hadamard(wires=0)\n")
    make_opt = "opt = qml.GradientDescentOptimizer(stepsize=0.4)\n"
    make_x = "x = np.array(0.1, requires_grad=True)\n"
    swapped = entry.replace(make_opt + make_x, make_x + make_opt)
    assert len({entry, renamed, line_added, swapped}) == 4
    for name, code in {"renamed": renamed, "line added": line_added, "swapped": swapped}.items():
        reason, message, _, match = _static({"answer": _answer(code)}, v, existing)
        assert reason == "duplicate", name
        assert match["duplicate_of"] == "ps-0005" and "ps-0005" in message, name
        assert DEFAULT_THRESHOLD <= match["similarity"] <= 1, name
        assert match["similarity"] == pytest.approx(similarity(code, entry), abs=1e-4)
    # the added line and the swap change the normalised code: identity alone lets them through,
    # the n-gram similarity is what rejects them
    identity_only = _corpus_index(threshold=1.0)
    assert _static({"answer": _answer(renamed)}, v, identity_only)[0] == "duplicate"
    for code in (line_added, swapped):
        assert _static({"answer": _answer(code)}, v, identity_only)[0] == ""
        assert DEFAULT_THRESHOLD <= similarity(code, entry) < 1


def test_a_different_program_of_the_same_template_is_accepted():
    v = pennylane.__version__
    existing = _corpus_index()
    corpus = [s.code for s in corpus_seeds(SAMPLE)]
    swap_test = ("import pennylane as qml\n\ndev = qml.device(\"default.qubit\", wires=2)\n\n\n"
                 "@qml.qnode(dev)\ndef overlap(a, b):\n    qml.RY(a, wires=0)\n"
                 "    qml.RY(b, wires=1)\n    qml.SWAP(wires=[0, 1])\n"
                 "    return qml.expval(qml.PauliZ(0) @ qml.PauliZ(1))\n\n\n"
                 "print(overlap(0.2, 0.4))\n")
    # the user generator's new 6-wire circuit, and a hand-written QNode: the corpus's template
    # (device, QNode, expectation, print), other gates
    for code in (_circuit(6), swap_test):
        assert 0 < max(similarity(code, c) for c in corpus) < DEFAULT_THRESHOLD
        assert _static({"answer": _answer(code)}, v, existing)[0] == ""
    # and in the corpus itself: Bell vs. QFT, and an RX gradient vs. an RY optimisation
    by = {s.id: s.code for s in corpus_seeds(SAMPLE)}
    assert similarity(by["ps-0001"], by["ps-0004"]) < DEFAULT_THRESHOLD
    assert similarity(by["ps-0002"], by["ps-0005"]) < DEFAULT_THRESHOLD


def test_the_index_finds_what_comparing_every_pair_finds():
    """Prefix filtering and the size bound skip entries, never a near-duplicate: the best entry
    at or above the threshold is the one a comparison with every entry gives."""
    codes = [s.code for s in corpus_seeds(SAMPLE)] + [_circuit(w) for w in range(2, 9)]
    queries = codes + [c.replace("return", "qml.Hadamard(wires=0)\n    return", 1) for c in codes]
    for threshold in (0.3, 0.5, 0.7, 1.0):
        index = NearDuplicateIndex(threshold=threshold)
        for i, c in enumerate(codes):
            index.add(str(i), c)
        for q in queries:
            scores = [similarity(q, c) for c in codes]
            best = max(scores)
            got = index.match(q)
            if best < threshold:
                assert got is None
            else:
                assert got == (str(scores.index(best)), pytest.approx(best))


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
    # duplicates: of the corpus (rejected before the sandbox, naming the entry and the score) and
    # among the run's passed candidates (the first kept); the counts add up
    nd, within = report["near_duplicate"], report["duplicates_within_run"]
    of_corpus = [v for v in verdicts if v["reason"] == "duplicate"]
    corpus_ids = {s.id for s in corpus_seeds(SAMPLE)}
    assert nd["threshold"] == DEFAULT_THRESHOLD
    assert nd["of_corpus"] == len(of_corpus) > 0 and nd["within_run"] == len(within) > 0
    assert nd["of_corpus"] + nd["within_run"] == c["duplicate"]
    assert all(v["duplicate_of"] in corpus_ids and v["similarity"] >= DEFAULT_THRESHOLD
               for v in of_corpus)
    passed = {v["id"]: v["code"] for v in verdicts if v["reason"] == ""}
    kept = {r.id: r.code for r in rows}
    assert set(passed) == set(kept) | set(within) and not set(kept) & set(within)
    assert sum(r.cluster_size for r in rows) == len(passed)
    for cid, m in within.items():
        assert m["duplicate_of"] in kept and m["duplicate_of"] < cid
        assert m["similarity"] == pytest.approx(similarity(passed[cid], kept[m["duplicate_of"]]),
                                                abs=1e-4)
        assert m["similarity"] >= DEFAULT_THRESHOLD
    # the generator's 6-, 7- and 8-wire circuits differ after normalisation, yet are one cluster
    assert any(m["similarity"] < 1 for m in within.values())
    assert all(similarity(a, b) < DEFAULT_THRESHOLD for a, b in combinations(kept.values(), 2))
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
    assert report["near_duplicate"]["threshold"] == DEFAULT_THRESHOLD
    assert main(["synthesize", "--generator", "pennysynth_user:generate", "--seeds", str(SAMPLE),
                 "--against", "pennysynth", "--data-dir", f"pennysynth={PROBLEMS}", "-n", "6",
                 "--out", str(tmp_path / "s1"), "--no-progress", "--workers", "2",
                 "--near-duplicate", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["near_duplicate"]["threshold"] == 1.0
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
