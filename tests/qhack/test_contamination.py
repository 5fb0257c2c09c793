"""Contamination: a corpus seeded with a renamed, reformatted copy of one QHack challenge's code
(made here from the upstream archive, never stored in the repository) is flagged on that problem
and nowhere else; the reader takes JSONL, Parquet and dataset folders; the CLI speaks one line."""

from __future__ import annotations

import ast
import builtins
import json
from pathlib import Path

import pytest

from quantum_codegen_eval.cli import main
from quantum_codegen_eval.contamination import CorpusError, contamination, read_corpus

pytestmark = [pytest.mark.upstream]

SEEDED = "2022/qml_400_BuildingQRAM_template"
SAMPLE_CORPUS = Path(__file__).resolve().parents[1] / "pennysynth" / "data" / "sample.jsonl"


class _Rename(ast.NodeTransformer):
    """Every name the code defines (functions, arguments, assigned variables) gets a new one."""

    def __init__(self, defined: set[str]):
        self.new = {name: f"renamed_{i}" for i, name in enumerate(sorted(defined))}

    def visit_FunctionDef(self, node):
        node.name = self.new.get(node.name, node.name)
        self.generic_visit(node)
        return node

    def visit_arg(self, node):
        node.arg = self.new.get(node.arg, node.arg)
        return node

    def visit_Name(self, node):
        node.id = self.new.get(node.id, node.id)
        return node


def disguise(code: str) -> str:
    """``code`` with its own names renamed, docstrings kept but comments and layout changed."""
    tree = ast.parse(code)
    defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    defined |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments)
                for a in n.args + n.kwonlyargs}
    defined |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Store)}
    defined -= set(dir(builtins))
    out = ast.unparse(_Rename(defined).visit(tree))
    assert "renamed_0" in out and out != code
    return "# a knowledge-base entry\n" + out.replace("\n", "\n\n") + "\n"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, qhack_problems):
    template = qhack_problems[SEEDED].template
    rows = [json.loads(line) for line in SAMPLE_CORPUS.read_text().splitlines() if line.strip()]
    rows.append({"id": "seeded-copy", "code": disguise(template)})
    # the same code with more of the user's own around it: the overlap step finds it
    extra = "import math\n\n\ndef helper(x):\n    return math.sqrt(x) + 1\n\n\n"
    rows.append({"id": "seeded-extended", "code": extra + disguise(template) + "\nprint(1)\n"})
    path = tmp_path_factory.mktemp("corpus") / "corpus.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path, rows


def test_seeded_copy_is_flagged_on_its_problem_only(corpus, qhack_problems):
    path, rows = corpus
    report = contamination(path, "qhack", "all", problems=qhack_problems)
    assert report.entries == len(rows) and report.code_column == "code"
    assert set(report.flagged) == {SEEDED}
    found = {m.entry: m for m in report.flagged[SEEDED]}
    assert set(found) == {"seeded-copy", "seeded-extended"}
    assert found["seeded-copy"].kind == "identical" and found["seeded-copy"].score == 1.0
    assert found["seeded-extended"].kind == "near" and found["seeded-extended"].score > 0.9
    # the problems' own texts are no evidence against each other: every template as a corpus
    # entry flags exactly its own problem (identity) and no other
    templates = path.parent / "templates.jsonl"
    templates.write_text("".join(json.dumps({"id": pid, "code": r.template}) + "\n"
                                 for pid, r in qhack_problems.items()))
    every = contamination(templates, "qhack", "all", problems=qhack_problems)
    assert {pid: [m.entry for m in ms] for pid, ms in every.flagged.items()} == {
        pid: [pid] for pid in qhack_problems}
    md = report.to_markdown()
    assert "seeded-copy" in md and "1 problems flagged" in md


def test_reads_parquet_and_dataset_folders_and_code_column(corpus, tmp_path_factory):
    import datasets

    path, rows = corpus
    folder = tmp_path_factory.mktemp("corpus-folder")
    ds = datasets.Dataset.from_list([{"name": r["id"], "snippet": r["code"]} for r in rows])
    ds.to_parquet(str(folder / "train.parquet"))
    entries, column = read_corpus(folder / "train.parquet", "snippet")
    assert column == "snippet" and [e for e, _ in entries] == [r["id"] for r in rows]
    entries, _ = read_corpus(folder, "snippet")  # a dataset folder
    assert len(entries) == len(rows)
    with pytest.raises(CorpusError, match="no code column 'nope'.*its columns: name, snippet"):
        read_corpus(folder / "train.parquet", "nope")
    with pytest.raises(CorpusError, match="looked for code"):
        read_corpus(folder / "train.parquet")


def test_cli_writes_the_report_and_bad_input_is_one_line(corpus, qhack_data, tmp_path, capsys):
    path, _ = corpus
    out = tmp_path / "contam"
    assert main(["contamination", str(path), "--benchmark", "qhack", "--config", "all",
                 "--data-dir", str(qhack_data), "--out", str(out)]) == 1  # flagged
    saved = json.loads((out / "contamination.json").read_text())
    assert list(saved["flagged"]) == [SEEDED]
    assert (out / "contamination.md").read_text().startswith("# Contamination: qhack (all)")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"code": "x = 1"}\nnot json\n')
    capsys.readouterr()
    assert main(["contamination", str(bad), "--benchmark", "qhack", "--data-dir",
                 str(qhack_data)]) == 3
    err = capsys.readouterr().err
    assert err.strip() == f"qce contamination: corpus {bad}: line 2 is not JSON"
    assert main(["contamination", str(path), "--benchmark", "nope"]) == 2
