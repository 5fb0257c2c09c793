"""Hostile completions against the metrics that run in the evaluator's own process (no sandbox):
CodeBLEU, ROUGE-L, the hallucination check, code extraction, pass@k and how scoring calls them.
Each must return a (documented, counted) result or a clear per-sample error, never crash the
evaluator, stall it for minutes or blow its memory."""

from __future__ import annotations

import random
import subprocess
import sys
import time
import warnings
from types import SimpleNamespace

import pytest
from peak_rss import run_fresh, start_window
from rouge_score.rouge_scorer import _lcs_table

from quantum_codegen_eval.codeblocks import extract_all_blocks, extract_code
from quantum_codegen_eval.metrics import codebleu as cbmod
from quantum_codegen_eval.metrics.codebleu import codebleu
from quantum_codegen_eval.metrics.hallucination import (
    CodeParseError,
    find_hallucinations,
    hallucination_rate,
)
from quantum_codegen_eval.metrics.passk import pass_at_k
from quantum_codegen_eval.metrics.rouge import MAX_CHARS, CodeTokenizer, lcs_length, rouge_l
from quantum_codegen_eval.predictions import Sample
from quantum_codegen_eval.scoring import score

REF = ("import pennylane as qml\ndev = qml.device('default.qubit', wires=2)\n@qml.qnode(dev)\n"
       "def f(x):\n    qml.RX(x, wires=0)\n    qml.CNOT(wires=[0, 1])\n"
       "    return qml.expval(qml.PauliZ(0))\n")

BROKEN_CHAIN = "import pennylane as qml\nqml." + ".".join(["a"] * 40_000) + "(\n"


def _fast(seconds: float):
    """Context: the block's CPU time stays under ``seconds`` (a loose bound: minutes fail)."""
    class _T:
        def __enter__(self):
            self.t = time.process_time()

        def __exit__(self, *exc):
            spent = time.process_time() - self.t
            assert spent < seconds, f"took {spent:.1f} s CPU"
    return _T()


def test_deep_broken_chain_does_not_segfault_codebleu():
    # str() of a tree-sitter error node 30000+ levels deep overflowed the C stack (SIGSEGV):
    # in a subprocess so that a regression fails the test, not the test run
    prog = ("from quantum_codegen_eval.metrics.codebleu import codebleu\n"
            f"code = {BROKEN_CHAIN!r}\n"
            "for v in ('standard', 'quantum'):\n"
            "    r = codebleu(references=['x = 1'], predictions=[code], variant=v, lang='pennylane')\n"
            "    assert 0 <= r['codebleu'] <= 1\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", (out.returncode, out.stderr[-500:])


def test_structural_keys_only_for_deep_error_trees():
    # a shallow tree with a parse error keeps the reference's str() identity: equal s-expressions
    # of erroneous subtrees still match (same score as before the deep-tree guard)
    code = "def f(x:\n    qml.RX(x, wires=0)\n"
    assert codebleu(references=[code], predictions=[code])["syntax_match"] == 1.0
    assert cbmod.codebleu(references=[BROKEN_CHAIN], predictions=[BROKEN_CHAIN])["syntax_match"] == 1.0


@pytest.mark.parametrize("variant", ["standard", "quantum"])
def test_lone_surrogates_and_odd_characters_score(variant):
    preds = ['x = "\ud800"\nqml.RX(0, wires=0)\n', "x\udfff = 1\n", "x = 1\x00\ny = 2\n",
             "\ufeffimport pennylane as qml\r\nqml.RX(0,wires=0)\r\rqml.H(0)\n",
             "x\u200f = 1\nqml\u200b.RX(0)\n\u202eqml.H(0)\n", "\U0001f600 = 1\nqml.RX(\U0001f600)\n",
             "\tif x:\n\t\tqml.RX(0, wires=0)\n"]
    r = codebleu(references=[REF] * len(preds), predictions=preds, variant=variant, lang="pennylane")
    assert len(r["per_sample"]) == len(preds)
    assert all(0 <= row["codebleu"] <= 1 for row in r["per_sample"])
    # the surrogate is scored as U+FFFD (one character for one)
    clean = codebleu(references=[REF], predictions=['x = "\ufffd"\nqml.RX(0, wires=0)\n'], variant=variant,
                     lang="pennylane")
    assert r["per_sample"][0] == clean["per_sample"][0]
    assert rouge_l(references=[REF] * len(preds), predictions=preds, tokenizer="code")["f"] > 0


def test_hallucination_check_unparsable_not_crash():
    long_chain = "import pennylane as qml\nqml." + ".".join(["a"] * 10_000) + "\n"
    bombs = {"chain": long_chain, "line": "x = " + "a+" * 150_000 + "a\n",
             "surrogate": 'x = "\ud800"\n', "nul": "x = 1\x00\n",
             "big": "x = 1\n" * 50_000, "parens": "x = " + "(" * 100_000 + ")" * 100_000,
             "indent": "".join(" " * i + "if x:\n" for i in range(150)) + " " * 150 + "pass\n"}
    if sys.version_info < (3, 11):
        # Python 3.10's parser reads a 10,000-link attribute chain (3.11's gives up): checked
        # there, and the chain is the hallucination it is
        assert any(f.status == "hallucinated" for f in find_hallucinations(bombs.pop("chain")))
    with _fast(30):
        for name, code in bombs.items():
            with pytest.raises(CodeParseError):  # (named in the failure's traceback)
                assert name
                find_hallucinations(code)
        r = hallucination_rate(bombs.values())
        assert r.n_unparsable == len(bombs) and r.n_checked == 0
        # the recovery parse bounded too, and it reads the chain as the hallucination it is
        assert any(f.status == "hallucinated" for f in find_hallucinations(long_chain,
                                                                           recover=True))
        find_hallucinations('x = "\ud800"\nqml.RX(0, wires=0)\n', recover=True)
        with pytest.raises(CodeParseError, match="too long"):
            find_hallucinations("x = 1\n" * 40_000)


def test_hallucination_aliases_and_dynamic_access():
    def statuses(code):
        return {f.name: f.status for f in find_hallucinations(code)}

    assert statuses("import pennylane as np\nnp.RX(0.1, wires=0)\nnp.FakeGate(0)\n") == {
        "np.RX": "ok", "np.FakeGate": "hallucinated"}
    # qml rebound to something else: its attributes are not PennyLane's
    assert statuses("import numpy as qml\nqml.zeros(3)\n") == {}
    # a BOM in front of a program (Python skips it in a file) does not make it unparsable
    assert statuses("\ufeffimport pennylane as qml\nqml.RX(0.1, wires=0)\n") == {"qml.RX": "ok"}
    # star imports and dynamic access are not followed (documented): no finding, no crash
    assert statuses("from pennylane import *\nRX(0.1, wires=0)\n") == {}
    code = ("import pennylane\npl = __import__('pennylane')\ng = getattr(pl, 'FakeGate')\n"
            "pennylane.Hadamard(0)\n")
    assert statuses(code) == {"pennylane.Hadamard": "ok"}
    # names in every Unicode category around a reference
    weird = "import pennylane as qml\n\u00e9t\u00e9 = qml.RX\n\u0394 = qml.\u00c9\n"
    assert statuses(weird) == {"qml.RX": "ok", "qml.\u00c9": "hallucinated"}


def test_lcs_length_equals_rouge_score_table():
    rng = random.Random(3)
    for _ in range(300):
        a = [rng.choice("abcde") for _ in range(rng.randrange(0, 40))]
        b = [rng.choice("abcdef") for _ in range(rng.randrange(0, 40))]
        want = _lcs_table(a, b)[-1][-1] if a and b else 0
        assert lcs_length(a, b) == want


def test_rouge_l_long_prediction_bounded_and_counted():
    ref = REF * 30  # a ~1000-token reference
    pred = "qml.RX(a, wires=0)\n" * 60_000  # 1.1 MB, ~600k tokens
    with _fast(20):
        r = rouge_l(references=[ref, REF], predictions=[pred, REF], tokenizer="code")
    assert r.truncated == 1 and r.per_sample[1].f == 1.0
    assert r.per_sample[0] == rouge_l(references=[ref], predictions=[pred[:MAX_CHARS]], tokenizer="code").per_sample[0]
    with _fast(20):  # uncapped, 10^5 tokens against 10^3: the old table was 10^8 list cells
        r = rouge_l(references=[ref], predictions=[pred[:400_000]], tokenizer="code", max_chars=None)
    toks = CodeTokenizer().tokenize(pred[:400_000])
    assert r.truncated == 0 and r.precision == pytest.approx(
        lcs_length(CodeTokenizer().tokenize(ref), toks) / len(toks))


@pytest.mark.slow  # a sweep of size bombs through every CodeBLEU variant
def test_codebleu_size_bombs_bounded():
    bombs = ["x = " + "a+" * 5_000_000 + "a\n", "x = '" + "a" * 3_000_000 + "'\n",
             'x = """' + "a\n" * 1_000_000, "x = " + "(" * 100_000 + ")" * 100_000,
             "x = " + "[" * 100_000, "if x:\n    pass\n" + "elif x:\n    pass\n" * 10_000,
             "x = 0\n" + "x = x + 1\n" * 100_000, "```python\nx=1\n```\n" * 200_000]
    for variant in ("standard", "quantum"):
        with _fast(40), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = codebleu(references=[REF] * len(bombs), predictions=bombs, variant=variant, lang="pennylane")
        assert all(0 <= row["codebleu"] <= 1 for row in r["per_sample"])
        n_long = sum(len(b) > cbmod.MAX_CHARS for b in bombs)
        assert any(f"{n_long} of {len(bombs)} predictions are longer" in w for w in r.warnings)
        assert caught
    # a capped prediction scores as its first MAX_CHARS characters
    big = bombs[0]
    assert (codebleu(references=[REF], predictions=[big])["per_sample"][0]
            == codebleu(references=[REF], predictions=[big[:cbmod.MAX_CHARS]])["per_sample"][0])


@pytest.mark.slow  # several seconds of real processes: not in the fast tier
def test_extraction_bounded():
    texts = ["```python\nx=1\n```\n" * 200_000, "```python\n" * 200_000,
             "```python\n" + "x=1\n" * 1_000_000 + "``\n", "~~~\n" * 100_000 + "```" * 100_000,
             "x = 1\n" * 1_000_000]
    with _fast(20):
        for text in texts:
            extract_all_blocks(text)
            extract_code(text, which="last")


def test_pass_at_k_bad_arguments_and_huge_n():
    for n, c, k in [(3, 1, 5), (5, 1, 0), (5, 1, -1), (5, 6, 1), (-1, 0, 1)]:
        with pytest.raises(ValueError):
            pass_at_k(n, c, k)
    with _fast(5):
        v = pass_at_k(10**12, 10**11, 10).value
        w = pass_at_k(4 * 10**6, 2 * 10**6, 2 * 10**6).value
        u = pass_at_k(2 * 10**6, 1_500_000, 2).value
    assert v == pytest.approx(1 - 0.9**10, rel=1e-6) and w == 1.0
    assert u == pytest.approx(1 - (500_000 * 499_999) / (2 * 10**6 * (2 * 10**6 - 1)))
    assert pass_at_k(10, 3, 1).value == pytest.approx(0.3)


def test_scoring_keeps_other_samples():
    """Through ``scoring.score``: every hostile sample gets a number or a per-sample note, the
    good one keeps its score, the truncations are counted."""
    good = "```python\n" + REF + "```\n"
    completions = {"good": good, "surrogate": 'x = "\ud800"\n', "chain": BROKEN_CHAIN,
                   "huge": "x = " + "a+" * 1_000_000 + "a\n", "nul": "x\x00 = 1",
                   "fences": "```python\n" * 50_000}
    record = SimpleNamespace(pennylane_version=None)
    bench = SimpleNamespace(language=lambda config: "pennylane",
                            candidate_code=lambda rec, comp: extract_all_blocks(comp),
                            reference=lambda rec: REF, reference_kind=lambda rec: "reference")
    samples = [Sample("p", i, comp) for i, comp in enumerate(completions.values())]
    with _fast(40), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = score(bench, None, samples, {"p": record}, ("codebleu", "rouge_l", "hallucination"))
    rows = [out.per_sample[s.key] for s in samples]
    assert all(isinstance(r.get("codebleu"), float) and isinstance(r.get("rouge_l_f"), float)
               for r in rows)
    assert rows[0]["codebleu"] == pytest.approx(1.0) and rows[0]["hallucinated"] == []
    # the 2 MB line and the unterminated fence (its 500 KB tail is the code)
    assert out.codebleu["truncated"] == 2 and out.rouge_l["truncated"] == 2
    assert [i for i, r in enumerate(rows) if "metrics_truncated_at" in r] == [3, 5]
    assert out.hallucination["samples_checked"] + out.hallucination["unparsable"] == len(samples)


def test_linear_fence_scanner_matches_the_regex():
    from quantum_codegen_eval.codeblocks import _FENCE, _blocks

    rng = random.Random(0)
    parts = ["```", "````", "~~~", "```python", "```py x", " ```", "``` ", "\t~~~~", "x = 1", "",
             "```\r", "`` ", "````python", "~~~ js", "```\u00e9", "a```"]
    for _ in range(20_000):
        text = "\n".join(rng.choice(parts) for _ in range(rng.randrange(0, 12)))
        text += "\n" * rng.randrange(2)
        want = [(m.group(2), m.group(3), m.end()) for m in _FENCE.finditer(text)]
        assert [tuple(b) for b in _blocks(text)] == want, repr(text)


#: 164 KB of brackets nested 3000 deep with one stray character
NESTED_STRAY = "x = " + "[1, " * 3000 + "$" + ", 2" * 50_000 + "]" * 3000 + "\n"


def score_nested_stray() -> dict:
    """CodeBLEU of ``NESTED_STRAY`` and its CPU seconds (measured: that call, warm)."""
    codebleu(references=[REF], predictions=[REF])  # loads the parser
    start_window()
    t0 = time.process_time()
    r = codebleu(references=[REF], predictions=[NESTED_STRAY])
    return {"cpu": time.process_time() - t0, "codebleu": r["codebleu"]}


def test_nested_brackets_with_a_stray_character_score_in_linear_time():
    """Brackets nested 3000 deep with one stray character: CodeBLEU's syntax match
    printed every erroneous subtree (cost: the square of the depth; 4 minutes and 4.6 GB in
    ``qce evaluate``). Past ``STR_COST_LIMIT`` printed nodes the error nodes are keyed by their
    structure: a second, and the same score on every run. Memory: the growth of a fresh
    process's peak RSS (tests/support/peak_rss.py)."""
    from quantum_codegen_eval.metrics import _codebleu_tree as tree_mod

    code = NESTED_STRAY
    peak = run_fresh(score_nested_stray)
    r = peak.result
    assert r["cpu"] < 5, r
    assert peak.growth_mb < 500, peak
    assert 0 <= r["codebleu"] <= 1
    assert codebleu(references=[code], predictions=[code])["syntax_match"] == 1.0
    # the cost decides: a shallow broken tree keeps str() keys, this one does not
    parser = cbmod._parser()
    assert tree_mod._error_text_costly(parser.parse(code.encode()).root_node)
    small = parser.parse(b"def f(x:\n    qml.RX(x, wires=0)\n").root_node
    assert small.has_error and not tree_mod._error_text_costly(small)
