"""The code is taken out of a completion once, by the stage driver, with the rule the benchmark
declares (issue 35): ``Benchmark.make_judge`` hands the judge ``Benchmark.extract`` and
``judges.base.code_of`` applies it; a judge receives code. A judge module that imports or calls
an extraction function extracts itself, and fails here."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import quantum_codegen_eval.judges as judges_pkg
from quantum_codegen_eval import codeblocks
from quantum_codegen_eval.benchmarks.base import get, judged
from quantum_codegen_eval.judges.base import (
    MAX_COMPLETION_CHARS,
    code_of,
    judge_many,
    make_verdict,
    program_key,
)
from quantum_codegen_eval.verdict import Verdict

JUDGES = Path(judges_pkg.__file__).parent
#: the driver: the one place that applies the rule a judge was handed
DRIVER = JUDGES / "base.py"
#: every public function of ``codeblocks`` is a way to take code out of text
EXTRACTORS = {n for n in dir(codeblocks) if not n.startswith("_")
              and callable(getattr(codeblocks, n)) and getattr(codeblocks, n).__module__
              == codeblocks.__name__}


def _extracts(path: Path, root: Path) -> list[str]:
    """Where ``path`` imports ``codeblocks`` or one of its functions, or reads a judge's
    ``extract``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        hit = False
        if isinstance(node, ast.ImportFrom):
            hit = (node.module or "").endswith("codeblocks") or any(
                a.name == "codeblocks" or a.name in EXTRACTORS for a in node.names)
        elif isinstance(node, ast.Import):
            hit = any(a.name.endswith("codeblocks") for a in node.names)
        elif isinstance(node, ast.Attribute):
            hit = node.attr == "extract" or node.attr in EXTRACTORS
        elif isinstance(node, ast.Name):
            hit = node.id in EXTRACTORS
        if hit:
            found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_the_extractors_are_known():
    assert {"extract_code", "extract_all_blocks", "extract_last_block"} <= EXTRACTORS


def test_no_judge_extracts_code_itself():
    modules = [p for p in JUDGES.rglob("*.py") if p != DRIVER]
    assert len(modules) > 20
    assert [hit for p in modules for hit in _extracts(p, JUDGES)] == []


def test_the_scan_sees_a_judge_that_extracts(tmp_path):
    bad = tmp_path / "judge.py"
    bad.write_text("from ...codeblocks import extract_code\n"
                   "from quantum_codegen_eval import codeblocks\n"
                   "def jobs(self, problem, completion):\n"
                   "    code = self.extract(completion)\n"
                   "    return codeblocks.extract_last_block(completion)\n")
    assert len(_extracts(bad, tmp_path)) == 4


@pytest.mark.parametrize("name", judged())
def test_the_benchmark_hands_its_judge_its_rule(name):
    bench = get(name)
    assert bench.make_judge().extract is bench.extract
    module_factory = getattr(bench.loader, "make_judge", None)
    if module_factory is not None:  # the module's own make_judge is the same way in
        assert module_factory().extract is bench.extract


@dataclass
class Recorder:
    """A judge that records the code it is given and accepts it."""

    benchmark: str = "recorder"
    deterministic = True
    seen: list = field(default_factory=list)

    def jobs(self, problem, code):
        self.seen.append(code)
        return make_verdict(self, problem["id"], "AC")

    def decide(self, problem, code, results):
        raise AssertionError("no stage")

    def reads(self, problem, code):
        return code


FENCED = "Here it is:\n```python\na = 1\n```\nand\n```python\nb = 2\n```\nDone."


def test_the_driver_gives_the_judge_the_rules_code():
    judge = Recorder()
    judge.extract = codeblocks.extract_last_block
    judge_many(judge, [({"id": "p"}, FENCED), ({"id": "p"}, "x = 1"), ({"id": "p"}, "```js\n1\n```\n")])
    assert judge.seen == ["b = 2\n", "x = 1", None]


def test_a_judge_made_without_its_benchmark_is_given_the_text():
    judge = Recorder()
    judge_many(judge, [({"id": "p"}, FENCED)])
    assert judge.seen == [FENCED]


def test_a_huge_completion_is_not_read():
    judge, calls = Recorder(), []
    judge.extract = lambda text: calls.append(text) or text
    out = code_of(judge, "#" * (MAX_COMPLETION_CHARS + 1), "p")
    assert isinstance(out, Verdict) and calls == []
    assert out.judge_limitation == "code_size" and out.judge_error
    (v,) = judge_many(judge, [({"id": "p"}, "#" * (MAX_COMPLETION_CHARS + 1))])
    assert v.judge_limitation == "code_size" and judge.seen == []
    judge.max_completion_chars = 10
    assert isinstance(code_of(judge, "#" * 11), Verdict)
    assert code_of(judge, "#" * 10) == "#" * 10


def test_a_rule_that_fails_loses_its_sample_only():
    judge = Recorder()

    def rule(text):
        if "boom" in text:
            raise ValueError("no")
        return text

    judge.extract = rule
    bad, good = judge_many(judge, [({"id": "p"}, "boom"), ({"id": "p"}, "ok")])
    assert bad.judge_error and "failed to extract" in bad.message
    assert good.status == "AC" and judge.seen == ["ok"]


def test_copies_are_the_same_program_after_extraction():
    judge = Recorder()
    judge.extract = codeblocks.extract_all_blocks
    one = program_key(judge, code_of(judge, "```python\nx = 1\n```"), {"id": "p"})
    assert one == program_key(judge, code_of(judge, "Sure:\n```python\nx = 1\n```\nBye"), {"id": "p"})
    assert one != program_key(judge, code_of(judge, "```python\nx = 2\n```"), {"id": "p"})
