"""ROUGE-L against hand-computed LCS values, with both tokenizers."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.metrics.rouge import CodeTokenizer, rouge_l

REF = "dev = qml.device('default.qubit', wires=2)\nqml.RX(0.5, wires=0)\nreturn qml.expval(qml.PauliZ(0))"
PRED = "qml.RY(0.5, wires=0)\nreturn qml.probs(wires=0)"


def test_default_tokenizer_hand_computed():
    # rouge-score's tokenizer: lowercase, [a-z0-9]+ runs
    # ref : dev qml device default qubit wires 2 qml rx 0 5 wires 0 return qml expval qml pauliz 0  (19)
    # pred: qml ry 0 5 wires 0 return qml probs wires 0                                            (11)
    # LCS : qml 0 5 wires 0 return qml ... 0 -> "qml 0 5 wires 0 return qml 0" = 8
    r = rouge_l(references=[REF], predictions=[PRED])
    assert r["precision"] == pytest.approx(8 / 11)
    assert r["recall"] == pytest.approx(8 / 19)
    assert r["f"] == pytest.approx(2 * 8 / (11 + 19))
    assert r["signature"].startswith("rouge_l|tokenizer:default|stemmer:none|agg:mean|rouge-score:")


def test_code_tokenizer_hand_computed():
    tok = CodeTokenizer().tokenize
    assert tok("qml.RX(0.5, wires=0)") == ["qml.RX", "(", "0.5", ",", "wires", "=", "0", ")"]
    assert tok("x **= 2 // y") == ["x", "**=", "2", "//", "y"]
    # ref : qml.RX ( 0.5 , wires = 0 ) qml.expval ( qml.PauliZ ( 0 ) )  (15)
    # pred: qml.RY ( 0.5 , wires = 0 ) qml.probs ( wires = 0 )          (14)
    # LCS : ( 0.5 , wires = 0 ) ( 0 ) ) -> 10 (case and dotted names kept: qml.RX != qml.RY)
    ref = "qml.RX(0.5, wires=0) qml.expval(qml.PauliZ(0))"
    pred = "qml.RY(0.5, wires=0) qml.probs(wires=0)"
    assert len(tok(ref)) == 15 and len(tok(pred)) == 14
    r = rouge_l(references=[ref], predictions=[pred], tokenizer="code")
    assert r["precision"] == pytest.approx(10 / 14)
    assert r["recall"] == pytest.approx(10 / 15)
    assert r["signature"].startswith("rouge_l|tokenizer:code|agg:mean")
    # the default tokenizer sees "qml rx" vs "qml ry": a different score
    assert rouge_l(references=[ref], predictions=[pred])["f"] != pytest.approx(r["f"])


def test_means_over_pairs_and_per_sample():
    r = rouge_l(references=["a b c d", "x y"], predictions=["a b c d", "z"])
    assert [s["f"] for s in r["per_sample"]] == [1.0, 0.0]
    assert r["f"] == pytest.approx(0.5) and r["precision"] == pytest.approx(0.5)
    assert rouge_l(references=["A B"], predictions=["a b"])["f"] == 1.0          # default lowercases
    assert rouge_l(references=["A B"], predictions=["a b"], tokenizer="code")["f"] == 0.0
    stem = rouge_l(references=["running gates"], predictions=["run gate"], use_stemmer=True)
    assert stem["f"] == 1.0 and "stemmer:porter" in stem["signature"]


@pytest.mark.parametrize(("refs", "preds", "message"), [
    (["a"], ["a", "b"], "1 references but 2 predictions"),
    ([], [], "no pairs"),
    (["a", None], ["a", "b"], "pair 1 is not a pair of strings"),
    ("abc", "abd", "lists of strings"),
])
def test_bad_input(refs, preds, message):
    with pytest.raises(ValueError, match=message):
        rouge_l(references=refs, predictions=preds)


def test_unknown_tokenizer():
    with pytest.raises(ValueError, match="unknown tokenizer 'bpe'"):
        rouge_l(references=["a"], predictions=["a"], tokenizer="bpe")


def test_positional_pairs_are_deprecated_but_still_score():
    """``references=`` / ``predictions=`` by keyword; the old positional call warns once and
    gives the same score; a call mixing the two or missing one is a TypeError."""
    want = rouge_l(references=["a b c"], predictions=["a c"])
    with pytest.warns(DeprecationWarning, match=r"rouge_l\(references, predictions\) by position"):
        old = rouge_l(["a b c"], ["a c"])
    assert old == want
    with pytest.raises(TypeError, match="by keyword"):
        rouge_l(["a b c"], references=["a c"])
    with pytest.raises(TypeError, match="missing predictions="):
        rouge_l(references=["a"])
