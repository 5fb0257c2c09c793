"""The faster CodeBLEU gives exactly the numbers of the implementation it replaced.

The previous implementation is read from git (commit ``PREVIOUS``, the merge of the metrics
branch, before the speed work) into a temporary package and run side by side with today's on
real code (functions of the installed PennyLane and Qiskit, Qiskit HumanEval, the QHack
templates, halves of them: parse errors), for every variant. Floats are compared with ``==``.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import _codebleu_corpus as corpus  # tests/support
import pytest

from quantum_codegen_eval.metrics import _codebleu_tree
from quantum_codegen_eval.metrics.codebleu import _parser, codebleu

PREVIOUS = "0f5a74b"  # main with the metrics work, before the speed work
REPO = Path(__file__).resolve().parents[2]
MODULES = ("codebleu", "_codebleu_bleu", "_codebleu_quantum", "_codebleu_ref", "_codebleu_strip",
           "results", "signature")
VARIANTS = [("standard", "python"), ("quantum", "python"), ("quantum", "pennylane"),
            ("quantum", "qiskit")]


@pytest.fixture(scope="module")
def previous(tmp_path_factory):
    """``codebleu`` of commit PREVIOUS, imported as package ``qce_previous``."""
    root = tmp_path_factory.mktemp("previous")
    pkg = root / "qce_previous"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name in MODULES:
        done = subprocess.run(
            ["git", "-C", str(REPO), "show", f"{PREVIOUS}:src/quantum_codegen_eval/metrics/{name}.py"],
            capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"previous implementation not in git here: {done.stderr.strip()}")
        (pkg / f"{name}.py").write_text(done.stdout)
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module("qce_previous.codebleu").codebleu
    finally:
        sys.path.remove(str(root))


@pytest.fixture(scope="module")
def pairs(upstream):
    progs = corpus.package_functions("pennylane", 3, 200)[::6]
    progs += corpus.package_functions("qiskit", 3, 120, "circuit")[::4]
    progs += corpus.humaneval_programs(upstream) + list(corpus.qhack_templates(upstream).values())
    progs += [p[: len(p) // 2] for p in progs[::4]]  # truncated: parse errors
    refs, preds = corpus.make_pairs(progs, 900, seed=11)
    multi_r, multi_p = corpus.make_pairs(progs, 60, seed=12)
    other = corpus.make_pairs(progs, 60, seed=13)[1]
    return refs + [[a, b] for a, b in zip(multi_r, other, strict=True)], preds + multi_p


@pytest.mark.upstream
@pytest.mark.parametrize(("variant", "lang"), VARIANTS)
def test_same_numbers_as_previous_implementation(previous, pairs, variant, lang):
    refs, preds = pairs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        old = previous(refs, preds, variant=variant, lang=lang).as_dict()
        new = codebleu(references=refs, predictions=preds, variant=variant, lang=lang).as_dict()
    assert len(new["per_sample"]) == len(preds) >= 900
    differ = [i for i, (a, b) in enumerate(zip(old["per_sample"], new["per_sample"], strict=True))
              if a != b]
    assert not differ, f"{len(differ)} pairs differ, first {differ[:5]}"
    assert old == new  # corpus numbers, signature, warnings: bit for bit


def test_deep_code_same_numbers_as_previous(previous):
    """Past the recursion limit the tree walk falls back to a stack; the dataflow graph then
    fails as it always did (empty), and the other components are unchanged."""
    deep = "x = " + "(" * 1200 + "y" + ")" * 1200 + "\nz = x\n"
    moderate = "x = " + "-" * 300 + "y\nz = x + y\n"
    for ref, pred in ((deep, "z = x\n"), (moderate, moderate), (deep, deep)):
        assert previous([ref], [pred]).as_dict() == codebleu(references=[ref], predictions=[pred]).as_dict()


def test_tree_module_docstring_examples():
    import doctest

    result = doctest.testmod(_codebleu_tree)
    assert result.attempted > 0 and result.failed == 0


def test_cursor_walk_any_depth():
    """The walk uses a cursor (no recursion): code nested past the recursion limit still gets
    its subtrees and tokens."""
    parser = _parser()
    text = "x = " + "(" * 1500 + "y" + ")" * 1500 + "\n"
    ids = _codebleu_tree.SyntaxIds()
    tree = _codebleu_tree.flatten(parser.parse(text.encode()).root_node, parser.language, ids,
                                  True)
    assert len(tree.subtrees) == 1500 + 3  # module, expression_statement, assignment, 1500 (...)
    assert [tree.types[i] for i in tree.token_leaves] == ["identifier", "identifier"]
