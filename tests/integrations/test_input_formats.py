"""Other tools' output files as predictions: the same programs carried by our JSONL, an lm-eval
``--log_samples`` file, an OpenAI Batch output file and inspect_ai logs (.eval and .json) give
the same samples and, judged for real, the same per-sample statuses. The lm-eval and inspect
files are written by real runs of those tools; the batch file by hand (no API here), in the
format of the Batch API's output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from integration_programs import EXPECTED, PROGRAMS, statuses

from quantum_codegen_eval import evaluate
from quantum_codegen_eval.benchmarks.base import UsageError
from quantum_codegen_eval.cli import main
from quantum_codegen_eval.inputs import InputFormatError, detect_format, read_input
from quantum_codegen_eval.inputs.openai_batch import split_custom_id


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def batch_line(custom_id: str, *contents: str, status: int = 200, error=None) -> dict:
    """One line of an OpenAI Batch output file (chat completions)."""
    choices = [{"index": i, "message": {"role": "assistant", "content": c},
                "finish_reason": "stop"} for i, c in enumerate(contents)]
    body = ({"id": "chatcmpl-1", "object": "chat.completion", "choices": choices}
            if status == 200 else {"error": {"message": "Rate limit reached", "type": "requests"}})
    return {"id": f"batch_req_{custom_id}", "custom_id": custom_id, "error": error,
            "response": None if error else {"status_code": status, "request_id": "r",
                                            "body": body}}


def lm_eval_line(doc_id: int, pid: str, filtered: list, resps: list) -> dict:
    """One line of an lm-eval ``--log_samples`` file (the fields our reader reads, and some)."""
    return {"doc_id": doc_id, "doc": {"id": pid, "prompt": "..."}, "target": "",
            "arguments": {"gen_args_0": {"arg_0": "...", "arg_1": {}}}, "resps": resps,
            "filtered_resps": filtered, "filter": "none", "metrics": ["pass@1"]}


@pytest.fixture(scope="module")
def files(tmp_path_factory, answers) -> dict[str, Path]:
    """The programs of PROGRAMS in each format (one completion per problem)."""
    out = tmp_path_factory.mktemp("formats")
    files = {"jsonl": _jsonl(out / "ours.jsonl", [{"id": pid, "completion": c}
                                                   for pid, c in PROGRAMS.items()])}
    files["openai-batch"] = _jsonl(out / "batch_output.jsonl", [
        *(batch_line(f"{pid}#0", c) for pid, c in PROGRAMS.items()),
        batch_line("sample/qk_bell_circuit#1", status=429),
        batch_line("sample/qk_ghz_circuit#1", error={"code": "server_error", "message": "boom"}),
    ])
    pytest.importorskip("lm_eval")
    pytest.importorskip("inspect_ai")
    files["lm-eval"] = _lm_eval_predictions(out, answers)
    files["inspect .eval"] = _inspect_log(out, answers, "eval")
    files["inspect .json"] = _inspect_log(out, answers, "json")
    return files


def _lm_eval_predictions(out: Path, answers: dict[str, str]) -> Path:
    """A real lm-eval run of our task, ``predict_only`` (generation without metrics: the
    pre-generated outputs ``qce evaluate`` scores)."""
    from harness_models import fixed_lm
    from lm_eval import simple_evaluate
    from lm_eval.loggers import EvaluationTracker
    from lm_eval.tasks import TaskManager

    from quantum_codegen_eval.integrations.lm_eval import include_path

    manager = TaskManager(include_path=include_path(), metadata={"config": "qiskit"})
    tracker = EvaluationTracker(output_path=str(out / "lm-eval"))
    result = simple_evaluate(model=fixed_lm(answers), tasks=["qce_sample"], task_manager=manager,
                             predict_only=True, evaluation_tracker=tracker,
                             confirm_run_unsafe_code=True)
    tracker.save_results_aggregated(results=result, samples=result["samples"])
    tracker.save_results_samples(task_name="qce_sample", samples=result["samples"]["qce_sample"])
    (path,) = (out / "lm-eval").rglob("samples_qce_sample_*.jsonl")
    return path


def _inspect_log(out: Path, answers: dict[str, str], log_format: str) -> Path:
    """A real inspect run of our task (not scored: the log carries the completions only)."""
    from harness_models import mockllm
    from inspect_ai import eval as inspect_eval

    from quantum_codegen_eval.integrations.inspect_ai import task

    (log,) = inspect_eval(task("sample", "qiskit"), model=mockllm(answers), score=False,
                          display="none", log_format=log_format,
                          log_dir=str(out / f"inspect-{log_format}"))
    return Path(log.location)


def _read(path: Path) -> set[tuple[str, int, str]]:
    return {(s.problem_id, s.index, s.completion) for s in read_input(path).samples}


def test_each_format_is_detected_and_gives_the_same_samples(files):
    expected = {(pid, 0, c) for pid, c in PROGRAMS.items()}
    for name, path in files.items():
        assert detect_format(path) == name.split(" ")[0], name
        assert _read(path) == expected, name


def test_failed_batch_requests_are_missing_not_wrong(files):
    got = read_input(files["openai-batch"])
    assert len(got.samples) == len(PROGRAMS)  # the failed requests are no samples
    assert len(got.missing) == 2 and "status 429: Rate limit reached" in got.missing[0]
    assert "sample/qk_ghz_circuit#1: error: boom" in got.missing[1]


def test_batch_custom_ids_and_choices(tmp_path):
    assert split_custom_id("QPC001_A1#3") == ("QPC001_A1", 3)
    assert split_custom_id("a#b") == ("a#b", None) and split_custom_id("p") == ("p", None)
    path = _jsonl(tmp_path / "b.jsonl", [batch_line("p#2", "x = 1"), batch_line("q", "a", "b")])
    assert {(s.problem_id, s.index, s.completion) for s in read_input(path).samples} == {
        ("p", 2, "x = 1"), ("q", 0, "a"), ("q", 1, "b")}


def test_lm_eval_repeats_come_from_resps_when_the_filter_took_the_first(tmp_path):
    path = _jsonl(tmp_path / "samples_qce_x.jsonl", [
        lm_eval_line(0, "p", filtered=["a"], resps=[["a", "b"]]),  # take_first of 2 repeats
        lm_eval_line(1, "q", filtered=["extracted"], resps=[["raw"]]),  # the filter's output
    ])
    assert {(s.problem_id, s.index, s.completion) for s in read_input(path).samples} == {
        ("p", 0, "a"), ("p", 1, "b"), ("q", 0, "extracted")}


def test_unknown_and_ambiguous_files_are_one_line_usage_errors(tmp_path, capsys):
    unknown = _jsonl(tmp_path / "unknown.jsonl", [{"prompt": "p", "answer": "a"}])
    mixed = _jsonl(tmp_path / "mixed.jsonl", [{"id": "p", "completion": "c"},
                                             batch_line("p", "c")])
    with pytest.raises(InputFormatError, match="unknown input format"):
        detect_format(unknown)
    with pytest.raises(UsageError, match=r"ambiguous input format, lines look like jsonl "
                                         r"\(mixed.jsonl line 1\), openai-batch"):
        evaluate(str(mixed), "sample", "qiskit")
    for path in (unknown, mixed):
        assert main(["evaluate", str(path), "--benchmark", "sample", "--out",
                     str(tmp_path / "r")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and str(path) in err, err
    with pytest.raises(UsageError, match="needs a file"):
        evaluate({"p": ["c"]}, "sample", input_format="lm-eval")


def test_a_named_format_is_read_as_named(files):
    """--input-format wins over detection: our JSONL read as a batch file holds no request."""
    got = read_input(files["jsonl"], "openai-batch")
    assert all(s.unreadable for s in got.samples)


@pytest.mark.slow
def test_same_programs_same_statuses_in_every_format(files, sandbox):
    expected = {f"{pid}#0": status for pid, status in EXPECTED.items()}
    for name, path in files.items():
        report = evaluate(str(path), "sample", "qiskit", sandbox=sandbox, metrics=("pass@k",),
                          k=(1,))
        assert statuses(report) == expected, name
        assert len(report.summary.get("missing", [])) == (2 if name == "openai-batch" else 0)


def test_an_inspect_sample_that_errored_is_missing(tmp_path, answers, prompts):
    """A sample whose model call failed (inspect records its error) is no sample."""
    pytest.importorskip("inspect_ai")
    from harness_models import mockllm
    from inspect_ai import eval as inspect_eval

    from quantum_codegen_eval.integrations.inspect_ai import task

    model = mockllm(answers, fail=(prompts["sample/qk_ghz_circuit"],))
    (log,) = inspect_eval(task("sample", "qiskit", ids=["sample/qk_bell_circuit",
                                                         "sample/qk_ghz_circuit"]),
                          model=model, score=False, display="none", fail_on_error=False,
                          log_dir=str(tmp_path))
    got = read_input(log.location)
    assert [(s.problem_id, s.index) for s in got.samples] == [("sample/qk_bell_circuit", 0)]
    assert len(got.missing) == 1 and "'sample/qk_ghz_circuit' epoch 1: error:" in got.missing[0]
    assert "the provider failed" in got.missing[0]
