"""compare / qce compare on three real runs of the bundled sample (known-good, wrong and mixed
solutions, judged by the real judge in the real sandbox), plus hand-made runs for the exact
statistics, the QCoder human row and the refusals."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from scipy import stats

from quantum_codegen_eval import evaluate
from quantum_codegen_eval.benchmarks import sample
from quantum_codegen_eval.compare import (
    NotComparable,
    ProblemCounts,
    Run,
    compare,
    human_rates,
    latex_escape,
    load_run,
)
from quantum_codegen_eval.execution import Sandbox
from quantum_codegen_eval.provenance import Provenance

QCE = [sys.executable, "-m", "quantum_codegen_eval"]
TABLES = ("pass_at_k", "pass_at_1", "pass_at_2", "paired", "similarity", "errors", "statuses")
FIGURES = ("pass_at_1", "pass_at_2", "errors", "statuses")


def _good(task) -> str:
    return "```python\n" + task.prompt + task.canonical_solution + "```\n"


def _wrong(task) -> str:  # runs, returns the wrong thing
    return "```python\n" + task.prompt + "    return None\n```\n"


SYSTEMS = {
    "strong": lambda pid, i: True,
    "weak": lambda pid, i: i == 0 and pid.endswith("bell_circuit"),
    "mixed": lambda pid, i: i == 0 or pid.endswith("ghz_circuit"),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """Three report folders (two samples per problem); "weak" also as a result store."""
    root = tmp_path_factory.mktemp("runs")
    tasks = sample.problems("qiskit")
    out = {}
    with Sandbox(workers=2) as sb:
        for name, right in SYSTEMS.items():
            rows = [{"id": pid, "completion": _good(t) if right(pid, i) else _wrong(t)}
                    for pid, t in tasks.items() for i in range(2)]
            store = root / "stores" / name / "results.jsonl"
            report = evaluate(rows, "sample", "qiskit", k=(1, 2), sandbox=sb, store=store)
            report.save(root / name)
            out[name] = root / name
    out["store:weak"] = root / "stores" / "weak" / "results.jsonl"
    return out


def _qce(*args, cwd=None):
    return subprocess.run([*QCE, *map(str, args)], capture_output=True, text=True, timeout=300,
                          cwd=cwd)


def _main(capsys, *args):
    """``qce`` in this process (the same ``cli.main`` the console script runs): (code, stderr)."""
    from quantum_codegen_eval import cli

    capsys.readouterr()
    code = cli.main([str(a) for a in args])
    return code, capsys.readouterr().err


def _edit(src: Path, dst: Path, change) -> Path:
    shutil.copytree(src, dst)
    data = json.loads((dst / "report.json").read_text())
    change(data)
    (dst / "report.json").write_text(json.dumps(data))
    return dst


# ------------------------------------------------------------------ provenance in a report

def test_report_carries_provenance(runs):
    data = json.loads((runs["strong"] / "report.json").read_text())
    prov = Provenance.from_dict(data["provenance"])
    sig = prov.signature
    assert (sig.benchmark, sig.config, sig.judge["time_limit"]) == ("sample", "qiskit", 30.0)
    assert sig.environments[0].name == "current" and sig.environments[0].qiskit
    from quantum_codegen_eval import __version__

    assert sig.package == __version__ and data["provenance"]["signature_string"] == sig.render()
    assert prov.run.started and prov.run.seconds > 0 and prov.run.python
    assert "## Provenance" in (runs["strong"] / "report.md").read_text()
    assert sig.render() in (runs["strong"] / "report.md").read_text()
    # the store carries it too
    side = runs["store:weak"].with_name("results.jsonl.provenance.json")
    assert Provenance.from_dict(json.loads(side.read_text())).signature == sig


# ------------------------------------------------------------------ qce compare end to end

def test_qce_compare_writes_everything(runs, tmp_path):
    out = tmp_path / "cmp"
    proc = _qce("compare", runs["strong"], runs["weak"], "--label", f"M={runs['mixed']}",
                "--out", out, "-k", "1", "2", "--n-boot", "2000")
    assert proc.returncode == 0, proc.stderr
    assert "# Comparison: sample (qiskit)" in proc.stdout
    for name in TABLES:
        for ext in ("md", "tex", "csv", "json"):
            assert (out / "tables" / f"{name}.{ext}").stat().st_size > 0, (name, ext)
    for name in FIGURES:
        for ext in ("png", "pdf"):
            assert (out / "figures" / f"{name}.{ext}").stat().st_size > 1000, (name, ext)
    data = json.loads((out / "comparison.json").read_text())
    assert [r["label"] for r in data["runs"]] == ["strong", "weak", "M"]
    pass1 = data["tables"]["pass_at_1"]
    all_col = pass1["header"].index("all (n=4)")
    got = {row[0]: row[all_col]["value"] for row in pass1["rows"]}
    for label, name in (("strong", "strong"), ("weak", "weak"), ("M", "mixed")):
        report = json.loads((runs[name] / "report.json").read_text())
        assert got[label] == pytest.approx(report["summary"]["pass@k"]["all"]["pass@1"])
    assert got == pytest.approx({"strong": 1.0, "weak": 0.125, "M": 0.625})
    both = data["tables"]["pass_at_k"]  # Table II's shape: every k side by side
    assert both["header"][-2:] == ["all pass@1", "all pass@2"]
    assert {r[0]: r[-2] for r in both["rows"]} == pytest.approx(got)
    assert {r[0]: r[-1] for r in both["rows"]} == pytest.approx({"strong": 1, "weak": 0.25, "M": 1})
    for row in pass1["rows"]:
        cell = row[all_col]
        assert cell["low"] <= cell["value"] <= cell["high"]
    assert len(data["pairs"]) == 6  # 3 pairs x 2 values of k
    assert {p["k"] for p in data["pairs"]} == {1, 2}
    # the statuses table: AC share equals pass@1
    st = data["tables"]["statuses"]
    ac = st["header"].index("AC")
    assert {r[0]: r[ac] for r in st["rows"]} == pytest.approx(got)
    # CSV: intervals spread over three columns
    header = (out / "tables" / "pass_at_1.csv").read_text().splitlines()[0]
    assert "all (n=4) low" in header and "all (n=4) high" in header


def test_stores_and_reports_agree(runs):
    groups = {pid: rec.difficulty_scale for pid, rec in sample.problems("qiskit").items()}
    as_store = load_run(runs["store:weak"], "weak-store", groups)
    as_report = load_run(runs["weak"])
    assert as_store.kind == "store" and as_store.provenance == as_report.provenance
    assert as_store.problems == as_report.problems
    assert as_store.errors == as_report.errors
    result = compare([as_report, as_store], k=(1,), n_boot=200)
    assert result.pairs[0].difference == 0 and result.pairs[0].p_value == 1.0


def test_one_sample_per_problem_p_value_is_binomtest(runs):
    prov = load_run(runs["strong"]).provenance
    a = [1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 1]
    b = [0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0]

    def run(label, correct):
        probs = {f"p{i}": ProblemCounts(f"p{i}", "all", 1, c, {"AC" if c else "WA": 1})
                 for i, c in enumerate(correct)}
        return Run(label, label, "report", "sample", "qiskit", "difficulty", probs, {}, 0,
                   provenance=prov)

    result = compare([run("A", a), run("B", b)], k=(1,), n_boot=500)
    pair = result.pairs[0]
    only_a = sum(x and not y for x, y in zip(a, b, strict=True))
    only_b = sum(y and not x for x, y in zip(a, b, strict=True))
    assert pair.nonzero == only_a + only_b
    assert pair.p_value == pytest.approx(stats.binomtest(only_a, only_a + only_b, 0.5).pvalue)
    assert pair.p_holm == pair.p_value  # one pair: nothing to adjust
    assert pair.difference == pytest.approx((sum(a) - sum(b)) / len(a))


# ------------------------------------------------------------------ refusals

@pytest.mark.parametrize("change, words", [
    (lambda d: d["provenance"]["signature"]["environments"][0].update(python="3.9.18"),
     "vs current(py3.9.18"),
    (lambda d: d["provenance"]["signature"].update(package="0.0.9"), "package version"),
    (lambda d: d["provenance"]["signature"].update(environments=[
        {"name": "qhack-2023", "python": "3.11", "pennylane": "0.28.0", "recipe": "era"}]),
     "vs qhack-2023(py3.11,pl0.28.0)"),
    (lambda d: d["provenance"]["signature"]["judge"].update(time_limit=10.0),
     "judge options time_limit=30 vs time_limit=10"),
    (lambda d: d.update(provenance=None), "no provenance"),
    (lambda d: d.update(per_problem=d["per_problem"][1:]), "problem set 4 vs 3 problems"),
])
def test_non_comparable_runs_are_refused_in_one_line(runs, tmp_path, change, words, capsys):
    other = _edit(runs["mixed"], tmp_path / "other", change)
    out = tmp_path / "cmp"
    code, err = _main(capsys, "compare", runs["strong"], other, "--out", out, "-k", "1",
                      "--n-boot", "100")
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in err, lines
    assert not out.exists()
    # --allow-mismatch: compared, with the caveat in every output
    code, err = _main(capsys, "compare", runs["strong"], other, "--out", out, "-k", "1",
                      "--n-boot", "100", "--allow-mismatch")
    assert code == 0, err
    assert words in (out / "comparison.md").read_text()
    for name in ("pass_at_1", "errors", "statuses"):
        assert words in (out / "tables" / f"{name}.md").read_text()
        assert words in (out / "tables" / f"{name}.tex").read_text()
        assert words in (out / "tables" / f"{name}.json").read_text()
    assert words in (out / "tables" / "CAVEATS.txt").read_text()


def test_other_benchmark_refused_by_the_api(runs):
    a = load_run(runs["strong"])
    b = replace(load_run(runs["weak"]), benchmark="qcoder")
    with pytest.raises(NotComparable, match="benchmark sample vs qcoder"):
        compare([a, b], k=(1,))


@pytest.mark.parametrize("args, code", [
    (["only_one"], 2),
    (["a", "b", "--label", "no-equals-sign"], 2),
    (["a", "b", "--n-boot", "0"], 2),
    (["missing_a", "missing_b"], 3),
])
def test_cli_exit_codes(tmp_path, args, code):
    proc = _qce("compare", *args, "--out", tmp_path / "o", cwd=tmp_path)
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_unreadable_report_named(tmp_path, runs, capsys):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "report.json").write_text("{not json")
    code, err = _main(capsys, "compare", runs["strong"], bad, "--out", tmp_path / "o")
    assert code == 3 and str(bad / "report.json") in err and len(err.strip().splitlines()) == 1


# ------------------------------------------------------------------ QCoder's human row

SUBMISSIONS = [  # our own rows, in the schema of the QCoder submissions config
    {"problem": "P1", "user": "u1", "submission_order": 3, "result": "AC"},
    {"problem": "P1", "user": "u1", "submission_order": 1, "result": "WA"},
    {"problem": "P1", "user": "u2", "submission_order": 2, "result": "AC"},
    {"problem": "P2", "user": "u1", "submission_order": 5, "result": "RE"},
    {"problem": "P2", "user": "u3", "submission_order": 4, "result": "DLE"},
    {"problem": "P2", "user": "u3", "submission_order": 6, "result": "RE"},
    {"problem": "P9", "user": "u1", "submission_order": 7, "result": "AC"},  # not compared
]


def test_human_rates_by_hand():
    first = human_rates(SUBMISSIONS, ["P1", "P2"], "first")
    # P1: first versions WA (u1), AC (u2) -> AC 1/2; P2: RE (u1), DLE (u3) -> AC 0
    assert first.rates == pytest.approx({"AC": 0.25, "WA": 0.25, "RE": 0.25, "DLE": 0.25})
    assert (first.problems, first.users, first.versions) == (2, 4, 4)
    last = human_rates(SUBMISSIONS, ["P1", "P2"], "last")
    assert last.rates == pytest.approx({"AC": 0.5, "RE": 0.5})
    every = human_rates(SUBMISSIONS, ["P1", "P2"], "all")
    # P1: AC 2/3, WA 1/3; P2: RE 2/3, DLE 1/3
    assert every.rates == pytest.approx({"AC": 1 / 3, "WA": 1 / 6, "RE": 1 / 3, "DLE": 1 / 6})
    assert human_rates(SUBMISSIONS, ["P7"]) is None


def test_human_row_in_a_qcoder_comparison(runs, tmp_path):
    prov = load_run(runs["strong"]).provenance

    def run(label, status):
        probs = {p: ProblemCounts(p, "QPC001", 1, int(status == "AC"), {status: 1})
                 for p in ("P1", "P2")}
        return Run(label, label, "report", "qcoder", "problems", "contest", probs, {}, 0,
                   provenance=prov)

    result = compare([run("m1", "AC"), run("m2", "DLE")], k=(1,), n_boot=100,
                     human_submissions=SUBMISSIONS, out=tmp_path / "q")
    table = result.tables["statuses"]
    assert table.rows[-1][0] == "human submissions"
    assert dict(zip(table.header[1:], table.rows[-1][1:], strict=True))["AC"] == pytest.approx(0.25)
    assert table.header[1] == "AC" and "DLE" in table.header
    assert "first version" in " ".join(table.notes)


# ------------------------------------------------------------------ LaTeX

def test_latex_escape():
    assert latex_escape("a_b & 50% #1 {x} ~^\\") == (
        r"a\_b \& 50\% \#1 \{x\} \textasciitilde{}\textasciicircum{}\textbackslash{}")


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no pdflatex installed")
@pytest.mark.filterwarnings("ignore:Glyph .* missing from font")  # the CJK label, in the plots
def test_latex_tables_compile(runs, tmp_path):
    out = tmp_path / "cmp"
    strange = _edit(runs["weak"], tmp_path / "w_&_%_#_é_中", lambda d: None)  # a label to escape
    compare([runs["strong"], strange, runs["mixed"]], k=(1, 2), n_boot=200, out=out)
    body = "\n".join(f"\\input{{tables/{name}.tex}}\\par\\bigskip" for name in TABLES)
    (out / "doc.tex").write_text("\\documentclass{article}\n\\usepackage{booktabs}\n"
                                 "\\usepackage[margin=1cm,landscape]{geometry}\n"
                                 f"\\begin{{document}}\n{body}\n\\end{{document}}\n")
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
                          cwd=out, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert (out / "doc.pdf").stat().st_size > 1000


def test_latex_escape_non_ascii():
    assert latex_escape("A − B, é, 中") == "A $-$ B, é, ?"


# ------------------------------------------------------------------ QCoder, end to end

QCODER_SUBMISSIONS = Path(__file__).parents[1] / "qcoder" / "data" / "sample_submissions.jsonl"


def test_qcoder_compare_with_the_human_row(github_url, tmp_path, capsys):
    """Two real QCoder runs (codes of the package's own sample submissions, judged on Aer) and
    a dataset built with those submissions: the human row as docs/compare.md defines it."""
    from quantum_codegen_eval.loaders.qcoder import build

    data = tmp_path / "qcoder"
    build(None, data, progress=False, submissions=str(QCODER_SUBMISSIONS))
    subs = [json.loads(line) for line in QCODER_SUBMISSIONS.read_text().splitlines() if line]
    best = {}  # problem -> (AC code, a failing code)
    for row in sorted(subs, key=lambda r: r["submission_order"]):
        entry = best.setdefault(row["problem"], {})
        entry.setdefault("AC" if row["result"] == "AC" else "fail", row["code"])
    problems = [p for p, e in best.items() if {"AC", "fail"} <= set(e)]
    assert len(problems) == 2
    with Sandbox(workers=2) as sb:
        for name, kind in (("right", "AC"), ("wrong", "fail")):
            rows = [{"id": p, "completion": best[p][kind]} for p in problems]
            evaluate(rows, "qcoder", data_dir=data, k=(1,), sandbox=sb,
                     metrics=("pass@k", "errors")).save(tmp_path / name)
    out = tmp_path / "cmp"
    proc = _qce("compare", tmp_path / "right", tmp_path / "wrong", "--data-dir", data,
                "--out", out, "-k", "1", "--n-boot", "200")
    assert proc.returncode == 0, proc.stderr
    table = json.loads((out / "tables" / "statuses.json").read_text())
    rows = {r[0]: dict(zip(table["header"][1:], r[1:], strict=True)) for r in table["rows"]}
    assert rows["right"]["AC"] == 1.0 and rows["wrong"]["AC"] == 0.0
    # first versions: QPC001_A1 WA (alice, order 1), QPC002_B3 UGE (bob, order 3)
    assert rows["human submissions"] == pytest.approx({**dict.fromkeys(rows["right"], 0.0),
                                                       "WA": 0.5, "UGE": 0.5})
    code, err = _main(capsys, "compare", tmp_path / "right", tmp_path / "wrong", "--data-dir",
                      data, "--out", tmp_path / "cmp2", "-k", "1", "--n-boot", "200",
                      "--human-versions", "last")
    assert code == 0, err
    table = json.loads((tmp_path / "cmp2" / "tables" / "statuses.json").read_text())
    assert table["rows"][-1][1] == 1.0 and table["header"][1] == "AC"  # both users ended on AC


def test_figures_draw_the_table_values(runs):
    result = compare({"A": runs["strong"], "B": runs["weak"], "C": runs["mixed"]}, k=(1,),
                     n_boot=300)
    figs = result.figures()
    ax = figs["pass_at_1"].axes[0]
    heights = sorted(round(p.get_height(), 6) for p in ax.patches)
    table = result.tables["pass_at_1"]
    expected = sorted(round(100 * c.value, 6) for row in table.rows for c in row[1:])
    assert heights == expected
    assert [t.get_text() for t in ax.get_xticklabels()] == ["basic", "intermediate", "all"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["A", "B", "C"]
    stacked = figs["statuses"].axes[0]
    tops = {}
    for p in stacked.patches:
        x = round(p.get_x() + p.get_width() / 2)
        tops[x] = max(tops.get(x, 0), p.get_y() + p.get_height())
    assert all(abs(v - 100) < 1e-6 for v in tops.values())  # shares of samples add up
    import matplotlib.pyplot as plt

    for fig in figs.values():
        plt.close(fig)


def test_qce_compare_reads_a_store_with_the_benchmarks_groups(runs, tmp_path, capsys):
    out = tmp_path / "cmp"
    code, err = _main(capsys, "compare", runs["strong"], runs["store:weak"], "--out", out,
                      "-k", "1", "--n-boot", "200")
    assert code == 0, err
    table = json.loads((out / "tables" / "pass_at_1.json").read_text())
    assert table["header"] == ["system", "basic (n=3)", "intermediate (n=1)", "all (n=4)"]
    assert [r[0] for r in table["rows"]] == ["strong", "weak"]  # the store's folder name
    assert table["rows"][1][-1]["value"] == pytest.approx(0.125)
    assert "similarity" in json.loads((out / "comparison.json").read_text())["tables"]
    notes = json.loads((out / "tables" / "similarity.json").read_text())["notes"]
    assert any("Result stores carry no similarity scores" in n for n in notes)


def test_a_store_is_counted_by_the_one_error_class_path(tmp_path):
    """A store's verdicts get their class from verdict.with_error_class, whatever class the
    record carries (a store written by hand or by another tool)."""
    rows = [("p1", "WA", "hallucination"), ("p2", "RE", None), ("p3", "AC", None)]
    store = tmp_path / "results.jsonl"
    store.write_text("".join(json.dumps({
        "key": f"{pid}#0", "problem_id": pid, "sample": 0, "benchmark": "sample",
        "config": "qiskit", "verdict": {"benchmark": "sample", "problem_id": pid, "status": st,
                                        "error_class": klass,
                                        "details": {"exception_type": "IndexError"}}}) + "\n"
        for pid, st, klass in rows))
    run = load_run(store)
    assert run.errors == {"reasoning": 2} and run.errors_total == 2
