"""Reading predictions: every shape, and every malformed input named and kept."""

from __future__ import annotations

import json

import datasets
import pytest

from quantum_codegen_eval.predictions import PredictionsError, read_predictions


def test_mapping_lists_and_scalars():
    samples = read_predictions({"a": ["x", "y"], "b": "z"})
    assert [(s.problem_id, s.index, s.completion) for s in samples] == [
        ("a", 0, "x"), ("a", 1, "y"), ("b", 0, "z")]
    assert all(s.format_error is None for s in samples)


def test_rows_count_samples_per_id_and_honour_explicit_index():
    rows = [{"id": "a", "completion": "x"}, {"id": "a", "completion": "y"},
            {"id": "b", "completion": "z", "sample": 3}]
    assert [s.key for s in read_predictions(rows)] == ["a#0", "a#1", "b#3"]


def test_duplicate_sample_index_is_a_recorded_error():
    rows = [{"id": "a", "completion": "x", "sample": 0}, {"id": "a", "completion": "y", "sample": 0}]
    samples = read_predictions(rows)
    assert len(samples) == 2
    assert samples[0].format_error is None
    assert "duplicate prediction a#0" in samples[1].format_error and "row 0" in samples[1].format_error


@pytest.mark.parametrize("value, message", [
    (None, "no 'completion' field"), (42, "completion is int"), ("   \n", "empty completion"),
    (["x"], "completion is list")])
def test_bad_completions_become_format_errors(value, message):
    row = {"id": "p", "completion": value} if value is not None else {"id": "p"}
    (sample,) = read_predictions([row])
    assert message in sample.format_error and "row 0" in sample.format_error


def test_rows_without_id_or_not_objects():
    samples = read_predictions([{"completion": "x"}, "just text", {"id": "ok", "completion": "y"}])
    assert "missing or invalid 'id'" in samples[0].format_error
    assert "got str" in samples[1].format_error
    assert samples[2].format_error is None


def test_jsonl_with_broken_and_non_utf8_lines_keeps_the_rest(tmp_path):
    path = tmp_path / "preds.jsonl"
    path.write_bytes(
        json.dumps({"id": "a", "completion": "x"}).encode() + b"\n"
        + b'{"id": "b", "completion": "\xff\xfe"}\n'
        + b"{not json}\n\n"
        + json.dumps({"id": "c", "completion": "y"}).encode() + b"\n")
    samples = read_predictions(path)
    assert len(samples) == 4
    assert samples[0].format_error is None and samples[3].format_error is None
    assert "preds.jsonl line 2: not UTF-8" in samples[1].format_error
    assert "preds.jsonl line 3: invalid JSON" in samples[2].format_error


def test_json_file_with_duplicate_keys_is_rejected(tmp_path):
    path = tmp_path / "preds.json"
    path.write_text('{"a": ["x"], "a": ["y"]}')
    with pytest.raises(PredictionsError, match="duplicate key 'a'"):
        read_predictions(path)


def test_missing_file_and_wrong_type():
    with pytest.raises(PredictionsError, match="not found"):
        read_predictions("/nonexistent/preds.jsonl")
    with pytest.raises(PredictionsError, match="got int"):
        read_predictions(3)


def test_datasets_dataset():
    ds = datasets.Dataset.from_list([{"id": "a", "completion": "x"}, {"id": "a", "completion": "y"}])
    assert [s.key for s in read_predictions(ds)] == ["a#0", "a#1"]
