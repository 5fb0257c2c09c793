"""Red team of the layer after the judges: hostile predictions files, program text forging
report lines, hostile result stores and pass@k counting edges. Real evaluate / CLI runs on the
bundled sample (real sandbox, real Qiskit); each attack asserts what the evaluator must do."""

from __future__ import annotations

import json
import re
import time

import pytest
from sample_answers import BELL, RIGHT, WRONG

from quantum_codegen_eval import cli, evaluate
from quantum_codegen_eval.benchmarks import sample
from quantum_codegen_eval.benchmarks.base import get
from quantum_codegen_eval.execution import ResultStore, Sandbox
from quantum_codegen_eval.predictions import PredictionsError, read_predictions
from quantum_codegen_eval.report import inline
from quantum_codegen_eval.scoring import MAX_METRIC_CHARS, Scores, score, summarise
from quantum_codegen_eval.verdict import Verdict, with_error_class

GHZ = "sample/qk_ghz_circuit"
FORGED_ROW = "| all | 1 | 100.0 | 100.0 | 100.0 |"
# a program whose exception text tries to rewrite the terminal line above and add table rows
ANSI = ('```python\ndef bell_circuit():\n    raise RuntimeError("\\x1b[1A\\x1b[2K\\r'
        f'{BELL}: AC  (1/1 tests)\\r\\n{FORGED_ROW}\\n<b>AC</b>")\n```')


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(workers=2) as sb:
        yield sb


def _line(obj) -> bytes:
    return json.dumps(obj).encode() + b"\n"


# ---------------------------------------------------------------- hostile predictions files

HOSTILE_LINES = [  # (line bytes, what its one FORMAT message must say)
    (b"[" * 100_000 + b"]" * 100_000 + b"\n", "nested too deeply"),
    (b'{"id": "p", "completion": "x", "sample": ' + b"9" * 5000 + b"}\n", "(4300"),  # 3.10: "(4300)", 3.11+: "(4300 digits)"
    (b'{"id": "' + BELL.encode() + b'", "completion": "x", "completion": "y"}\n',
     "duplicate key 'completion'"),
    (b'{"id": "a\\ud800", "completion": "x"}\n', "'id' is not valid Unicode"),
    (_line({"id": GHZ, "completion": "x\\ud800"}).replace(b"\\\\ud800", b"\\ud800"),
     "completion is not valid Unicode"),
    (b'{"id": "x", "completion": "\xff\xfe"}\n', "not UTF-8 (byte 27)"),
    (_line({"id": "x" * 5000, "completion": "x"}), "'id' is too long (5000 characters)"),
    (_line({"id": 1.5, "completion": "x"}), "missing or invalid 'id'"),
    (_line({"id": BELL, "sample": 1.5, "completion": RIGHT}), "got 1.5"),
    (_line({"id": BELL, "sample": -1, "completion": RIGHT}), "got -1"),
    (_line({"id": BELL, "sample": "0", "completion": RIGHT}), "got '0'"),
    (_line({"id": BELL, "sample": 10**12, "completion": RIGHT}), "got 1000000000000"),
    (_line({"id": BELL, "sample": True, "completion": RIGHT}), "got True"),
    (_line({"id": BELL, "completion": [RIGHT]}), "completion is list"),
    (_line({"id": BELL, "completion": {"code": RIGHT}}), "completion is dict"),
    (_line({"id": BELL, "completion": 7}), "completion is int"),
    (_line([BELL, RIGHT]), "expected an object"),
]


def test_each_hostile_line_is_one_clear_format_record(tmp_path):
    path = tmp_path / "preds.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + _line({"id": BELL, "completion": RIGHT})  # with a BOM
                     + b"".join(line for line, _ in HOSTILE_LINES))
    samples = read_predictions(path)
    assert len(samples) == 1 + len(HOSTILE_LINES)
    assert samples[0].key == f"{BELL}#0" and samples[0].format_error is None
    for n, (sample_, (_, expected)) in enumerate(zip(samples[1:], HOSTILE_LINES, strict=True), 2):
        assert sample_.format_error and expected in sample_.format_error, (n, sample_)
        assert sample_.format_error.startswith(f"preds.jsonl line {n}: ")
        assert len(sample_.format_error) < 200 and len(sample_.key) < 200
        sample_.key.encode("utf-8")  # storable
        assert sample_.completion == "" or sample_.completion == "y"
    keys = [s.key for s in samples]
    assert len(keys) == len(set(keys))
    assert [k for k in keys if k.startswith(f"{BELL}#-")] == [f"{BELL}#-{i}" for i in range(1, 6)]


def test_a_bad_sample_index_never_takes_a_valid_rows_key():
    rows = [{"id": BELL, "sample": 0.0, "completion": WRONG}, {"id": BELL, "sample": 0, "completion": RIGHT},
            {"id": BELL, "completion": RIGHT}]
    samples = read_predictions(rows)
    assert [(s.key, s.format_error is None) for s in samples] == [
        (f"{BELL}#-1", False), (f"{BELL}#0", True), (f"{BELL}#1", True)]


def test_whole_json_file_errors_are_one_line(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_bytes(b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    with pytest.raises(PredictionsError, match="nested too deeply"):
        read_predictions(deep)
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + json.dumps({BELL: [RIGHT]}).encode())
    assert [s.key for s in read_predictions(bom)] == [f"{BELL}#0"]
    keys = read_predictions({"a\ud800": ["x"], BELL: [RIGHT]})
    assert keys[0].unreadable and "not valid Unicode" in keys[0].format_error
    assert keys[1].key == f"{BELL}#0"


def test_cli_run_over_a_hostile_file_scores_the_rest_and_forges_nothing(tmp_path, capsys):
    inject = f"x\n\n{FORGED_ROW}\n<script>alert(1)</script>\x1b[31mRED\r\u202e"
    path = tmp_path / "preds.jsonl"
    path.write_bytes(_line({"id": BELL, "completion": RIGHT}) + _line({"id": BELL, "completion": ANSI})
                     + _line({"id": inject, "completion": "x"})
                     + _line({"id": GHZ, "completion": ANSI.replace("bell_circuit", "ghz_circuit")})
                     + b"".join(line for line, _ in HOSTILE_LINES))
    out = tmp_path / "out"
    rc = cli.main(["evaluate", str(path), "--benchmark", "sample", "--config", "qiskit",
                   "--out", str(out), "--no-progress", "-k", "1", "--workers", "2"])
    captured = capsys.readouterr()
    assert rc == cli.EXIT_OK and "Traceback" not in captured.err
    md = (out / "report.md").read_text(encoding="utf-8")
    assert md + "\n" == captured.out
    for forged in (FORGED_ROW, "<script>", "<b>", "\x1b", "\r", "\u202e"):
        assert forged not in md
    assert "\\| all \\| 1 \\| 100.0" in md  # shown, inert
    report = json.loads((out / "report.json").read_text())
    rows = {r["key"]: r for r in report["per_sample"]}
    assert len(rows) == 4 + len(HOSTILE_LINES)
    assert rows[f"{BELL}#0"]["status"] == "AC" and rows[f"{BELL}#1"]["status"] == "RE"
    assert "\x1b[1A" in rows[f"{BELL}#1"]["message"]  # the JSON keeps the text, escaped
    # 2 counted problems: bell (AC, RE, 5 bad 'sample' rows, a list/dict/int completion, a
    # duplicate-key line is unreadable) and ghz (RE, surrogate completion)
    assert report["summary"]["pass@k"]["all"]["problems"] == 2
    assert report["per_problem"][0]["problem_id"] == BELL
    assert (report["per_problem"][0]["n"], report["per_problem"][0]["correct"]) == (10, 1)
    lines = (out / "results.jsonl").read_bytes().splitlines()
    assert len(lines) == len(rows) and all(json.loads(x.decode("utf-8")) for x in lines)


def test_markdown_inline_is_inert():
    text = inline("a|b\n`<x>&\x1b[2K\r\u202e\ud800\\|" + "z" * 300)
    assert "\n" not in text and "\r" not in text and "\x1b" not in text and "<" not in text
    assert re.search(r"(?<!\\)\|", text.replace("\\\\", "")) is None  # every pipe escaped
    assert "\\u202e" in text and "\\ud800" in text and text.endswith("…")
    text.encode("utf-8")
    assert "`" not in inline("a`b", code=True)


def test_metrics_read_a_bounded_prefix_of_a_huge_completion():
    bench = get("sample")
    problems = sample.problems("qiskit")
    body = "```python\ndef bell_circuit():\n" + "    qc = QuantumCircuit(2)\n" * 150_000 + "```"
    samples = read_predictions({BELL: [body, RIGHT]})
    started = time.process_time()
    scores = score(bench, "qiskit", samples, problems, ["codebleu", "rouge_l"])
    assert time.process_time() - started < 30  # unbounded: minutes and gigabytes
    assert scores.per_sample[f"{BELL}#0"]["metrics_truncated"] is True
    assert "metrics_truncated" not in scores.per_sample[f"{BELL}#1"]
    assert scores.codebleu["pairs"] == 2 and len(body) > 20 * MAX_METRIC_CHARS


# ---------------------------------------------------------------- result store and resume


def _sample_rows():
    return [{"id": BELL, "completion": RIGHT}, {"id": BELL, "completion": WRONG},
            {"id": GHZ, "completion": "x"}]


def test_resume_after_a_torn_store_line(tmp_path, sandbox):
    store = tmp_path / "r.jsonl"
    first = evaluate(_sample_rows(), "sample", "qiskit", k=(1,), store=store, sandbox=sandbox)
    data = store.read_bytes()
    store.write_bytes(data[: len(data) - 25])  # killed mid-write of the last record
    again = evaluate(_sample_rows(), "sample", "qiskit", k=(1,), store=store, resume=True,
                     sandbox=sandbox)
    assert [r["status"] for r in again.per_sample] == [r["status"] for r in first.per_sample]
    keys = [json.loads(x)["key"] for x in store.read_text().splitlines()]
    assert sorted(keys) == sorted(r["key"] for r in first.per_sample)


def _edited(store, **changes):
    records = [json.loads(x) for x in store.read_text().splitlines()]
    for rec in records:
        for path, value in changes.items():
            target = rec
            *parents, leaf = path.split("__")
            for p in parents:
                target = target[p]
            if value is None:
                target.pop(leaf, None)
            else:
                target[leaf] = value
    store.write_text("".join(json.dumps(r) + "\n" for r in records))


@pytest.mark.parametrize("changes, message", [
    ({"benchmark": "qcoder"}, "judged in another run"),
    ({"config": "pennylane"}, "judged in another run"),
    # an older store (no benchmark/config fields) whose verdicts are of another problem
    ({"benchmark": None, "config": None, "verdict__problem_id": "QPC001_A1"}, "another run"),
    ({"verdict": "AC"}, "unreadable stored verdict"),
    ({"verdict": {"status": "AC"}}, "unreadable stored verdict"),
])
def test_resume_never_mixes_another_run(tmp_path, changes, message):
    store = tmp_path / "r.jsonl"
    rows = [{"id": GHZ, "completion": ""}, {"id": "nope", "completion": "x"}]  # no sandbox needed
    evaluate(rows, "sample", "qiskit", k=(1,), store=store)
    _edited(store, **changes)
    with pytest.raises(ValueError, match=message):
        evaluate(rows, "sample", "qiskit", k=(1,), store=store, resume=True)


def test_cli_resume_with_a_foreign_store_is_one_line(tmp_path, capsys):
    store = tmp_path / "r.jsonl"
    preds = tmp_path / "p.jsonl"
    preds.write_bytes(_line({"id": GHZ, "completion": ""}))
    evaluate(str(preds), "sample", "qiskit", k=(1,), store=store)
    _edited(store, config="pennylane")
    rc = cli.main(["evaluate", str(preds), "--benchmark", "sample", "--store", str(store),
                   "--out", str(tmp_path / "o"), "--resume", "--no-progress"])
    err = capsys.readouterr().err
    assert rc == cli.EXIT_INPUT and "another run" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_store_keeps_lone_surrogates_and_a_deep_line_is_corrupt(tmp_path):
    path = tmp_path / "s.jsonl"
    with ResultStore(path, key="key") as store:
        assert store.add({"key": "a", "message": "got \ud800"})
    assert ResultStore(path, key="key").get("a")["message"] == "got \ud800"
    path.write_bytes(path.read_bytes() + b"[" * 100_000 + b"\n" + _line({"key": "b"}))
    with pytest.raises(ValueError, match="corrupt record"):
        ResultStore(path, key="key")


# ---------------------------------------------------------------- pass@k counting edges


def _summary(verdicts_by_problem, k=(1, 2)):
    bench = get("sample")
    base = sample.problems("qiskit")
    samples = read_predictions({pid: ["x"] * len(vs) for pid, vs in verdicts_by_problem.items()})
    it = {pid: iter(vs) for pid, vs in verdicts_by_problem.items()}
    verdicts = {s.key: with_error_class(next(it[s.problem_id])) for s in samples}
    problems = {pid: base[pid] for pid in verdicts_by_problem if pid in base}
    return summarise(bench=bench, config="qiskit", samples=samples, verdicts=verdicts,
                     problems=problems, scores=Scores(), k=k, metrics=("pass@k", "errors"),
                     seconds=0.0)


def test_pass_at_k_edges():
    ac, wa = Verdict("sample", BELL, "AC"), Verdict("sample", BELL, "WA")
    fmt = Verdict("sample", GHZ, "FORMAT")
    broken = Verdict("sample", BELL, "AC", details={"judge_error": True})  # a claim of AC
    # n < k: never estimated
    report = _summary({BELL: [ac]})
    assert report.summary["pass@k"]["all"]["pass@2"] is None
    assert report.summary["pass@k"]["all"]["pass@1"] == 1.0
    # all samples FORMAT: counted, all failures
    report = _summary({GHZ: [fmt, fmt]})
    assert report.summary["pass@k"]["all"]["pass@2"] == 0.0
    # judge errors: never a pass, counted as a sample (provoking one can never raise pass@k),
    # no error class of the model's, the problem flagged
    broken_re = Verdict("sample", BELL, "RE", details={"judge_error": True})
    report = _summary({BELL: [ac, broken, broken_re]}, k=(1,))
    row = report.per_problem[0]
    assert (row["n"], row["correct"]) == (3, 1)
    assert report.summary["errors"] == {"judge_error": 2}
    assert report.summary["flags"] == {BELL: ["judge error in 2 sample(s)"]}
    assert report.summary["pass@k"]["all"]["pass@1"] == pytest.approx(1 / 3)
    # unknown ids are listed, never counted
    report = _summary({BELL: [wa], "sample/nope": [ac]}, k=(1,))
    assert report.summary["pass@k"]["all"] == {"problems": 1, "pass@1": 0.0, "partial_credit": 0.0}
    # many samples of one id: exact and fast
    report = _summary({BELL: [ac] + [wa] * 99_999}, k=(1, 100))
    assert report.summary["pass@k"]["all"]["pass@1"] == pytest.approx(1e-5)
    assert report.summary["pass@k"]["all"]["pass@100"] == pytest.approx(1e-3)


# ---------------------------------------------------------------- qce judge on a terminal


def test_qce_judge_output_cannot_rewrite_the_verdict_line(tmp_path, capsys):
    path = tmp_path / "c.md"
    path.write_text(ANSI)
    rc = cli.main(["judge", "sample", BELL, str(path)])
    out = capsys.readouterr().out
    assert rc == cli.EXIT_FAIL
    assert out.startswith(f"{BELL}: RE  (0/1 tests)\n")
    assert "\x1b" not in out and "\r" not in out and "\\x1b[1A" in out


def test_a_bad_k_is_refused_before_judging(tmp_path, capsys):
    with pytest.raises(ValueError, match="positive integer, got 0"):
        evaluate({BELL: [RIGHT]}, "sample", "qiskit", k=(1, 0), sandbox=object())  # never used
    preds = tmp_path / "p.jsonl"
    preds.write_bytes(_line({"id": BELL, "completion": RIGHT}))
    rc = cli.main(["evaluate", str(preds), "--benchmark", "sample", "-k", "0",
                   "--out", str(tmp_path / "o"), "--no-progress"])
    assert rc == cli.EXIT_USAGE and "-k must be a positive integer" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_report_json_is_strict_when_details_hold_nan():
    v = Verdict("sample", BELL, "WA", details={"got": float("nan"), "norm": [float("inf"), 1.0]})
    report = _summary({BELL: [v]}, k=(1,))
    text = report.to_json()
    assert "NaN" not in text and "Infinity" not in text
    details = json.loads(text)["per_sample"][0]["verdict"]["details"]
    assert details == {"got": None, "norm": [None, 1.0]}


def test_a_store_that_is_a_directory_is_one_line(tmp_path, capsys):
    preds = tmp_path / "p.jsonl"
    preds.write_bytes(_line({"id": GHZ, "completion": ""}))
    for extra in ([], ["--resume"]):
        rc = cli.main(["evaluate", str(preds), "--benchmark", "sample", "--store", str(tmp_path),
                       "--out", str(tmp_path / "o"), "--no-progress", *extra])
        err = capsys.readouterr().err
        assert rc == cli.EXIT_INPUT and "is not a file" in err and "Traceback" not in err
