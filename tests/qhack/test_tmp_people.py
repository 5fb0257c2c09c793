import dataclasses
from pathlib import Path
from qhack_official import upstream_failure
from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.judges.base import judge_many

P = Path("/tmp/oracle_people")
DJ4 = "2022/algorithms_500_DeutschJozsaStrikesAgain_template"
EXTRA = [{"name": "two_and_two", "input": "0,0,1,0,0,0,0,1", "expected": "2 and 2"}]

def test_people(qhack_problems, sandbox, tmp_path):
    judge = qhack.make_judge(env="era")
    rec = qhack_problems[DJ4]
    ext = dataclasses.replace(rec, tests=list(rec.tests) + EXTRA)
    files = sorted((P / "dj4").glob("*.py"))
    items = [(ext, f.read_text()) for f in files]
    out = judge_many(judge, items, sandbox)
    for f, v in zip(files, out):
        up = upstream_failure(f.stem, ext, f.read_text(), tmp_path / f.stem)
        print("RESULT", f.name, v.status, [t.status for t in v.tests], v.message[:600], v.details.get("oracle_queries"), "| UPSTREAM:", (up or "accepted")[:600])
