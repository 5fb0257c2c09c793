"""``qce publish-run``: runs (report folders) as a Hub dataset shaped like the leaderboard
"details" datasets.

The folder holds, per run timestamp ``TS`` (``2026_12_03T13_45_10``: the run's start from its
provenance, else the time report.json was written)::

    TS/details_<benchmark>_<config>_TS.parquet   one row per sample (verdict, metrics, history)
    TS/results_TS.parquet                        one row per run: aggregates and provenance
    TS/comparison_<table>_TS.parquet             a comparison folder's tables (``qce compare``)
    README.md                                    the card: ``configs`` with one split per TS
                                                 plus ``latest``

Configs: ``details_<benchmark>_<config>`` (one per benchmark and config), ``results`` and
``comparison_<table>``. Publishing another run into the same folder adds its timestamp split and
moves ``latest``. The upload is :func:`.publish.publish` (checks every config loads, then
``HfApi.upload_folder``). This module reads report dicts only, so :class:`.report.Report` can
call it (``Report.push_to_hub``).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
from pathlib import Path
from typing import Any

from .publish import UploadFailed

#: per-sample columns with fixed types (every split of a config has the same schema); the
#: rest of a row goes into ``extra`` as JSON
_DETAIL_COLUMNS = {
    "run": "string", "timestamp": "string", "benchmark": "string", "config": "string",
    "key": "string", "problem_id": "string", "group": "string", "sample": "int64",
    "status": "string", "error_class": "string", "passed": "bool_", "judge_error": "bool_",
    "tests_passed": "int64", "tests_total": "int64", "partial_credit": "float64",
    "message": "string", "codebleu": "float64", "rouge_l_f": "float64",
    "hallucinated": "string", "first_ac_round": "int64", "round_history": "string",
    "verdict": "string", "extra": "string",
}
_JSON_COLUMNS = {"hallucinated", "round_history", "verdict"}
_RESULT_COLUMNS = {
    "run": "string", "timestamp": "string", "benchmark": "string", "config": "string",
    "predictions": "int64", "problems": "int64", "pass_at_1": "float64", "pass_at_k": "string",
    "summary": "string", "per_problem": "string", "signatures": "string",
    "refinement": "string", "provenance": "string",
}


class PublishRunError(ValueError):
    """A run that cannot be published (the message names the file and why)."""


def _json(value: Any) -> str:
    """Strict JSON (NaN and infinities as null), as ``report.strict_json``, which this module
    cannot import: ``report`` imports it (``Report.push_to_hub``)."""

    def finite(v: Any) -> Any:
        if isinstance(v, float):
            return v if math.isfinite(v) else None
        if isinstance(v, dict):
            return {str(k): finite(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [finite(x) for x in v]
        return v

    return json.dumps(finite(value), default=str, allow_nan=False, ensure_ascii=False)


def sanitise(name: str) -> str:
    """A config or split name: every non-word character becomes ``_``."""
    return re.sub(r"\W", "_", str(name))


def run_timestamp(report: dict[str, Any], path: Path | None = None) -> str:
    """The run's split name: its start time (provenance), else report.json's modification time,
    in UTC as ``YYYY_MM_DDTHH_MM_SS``."""
    started = ((report.get("provenance") or {}).get("run") or {}).get("started")
    when = None
    if isinstance(started, str):
        try:
            when = _dt.datetime.fromisoformat(started)
        except ValueError:
            when = None
    if when is None:
        stamp = path.stat().st_mtime if path is not None else _dt.datetime.now().timestamp()
        when = _dt.datetime.fromtimestamp(stamp, _dt.timezone.utc)
    if when.tzinfo is not None:
        when = when.astimezone(_dt.timezone.utc)
    return when.strftime("%Y_%m_%dT%H_%M_%S")


def read_report(path: str | Path) -> tuple[dict[str, Any], Path]:
    """A report folder (or its report.json) as a dict, and the report.json path."""
    p = Path(path)
    file = p / "report.json" if p.is_dir() else p
    if not file.is_file():
        raise PublishRunError(f"{path}: no report.json (a run is a report folder written by "
                              "`qce evaluate` or refine_all)")
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise PublishRunError(f"{file}: not a readable report.json ({exc})") from None
    missing = [k for k in ("benchmark", "summary", "per_sample") if k not in (data or {})]
    if not isinstance(data, dict) or missing:
        raise PublishRunError(f"{file}: not a report (missing {', '.join(missing) or 'all'})")
    return data, file


def _table(rows: list[dict[str, Any]], columns: dict[str, str]):
    import pyarrow as pa

    schema = pa.schema([(name, getattr(pa, kind)()) for name, kind in columns.items()])
    return pa.Table.from_pylist(rows, schema=schema)


def _detail_rows(report: dict[str, Any], run: str, ts: str) -> list[dict[str, Any]]:
    groups = {r.get("problem_id"): r.get("group") for r in report.get("per_problem") or ()}
    rows = []
    for s in report["per_sample"]:
        row: dict[str, Any] = {"run": run, "timestamp": ts, "benchmark": report["benchmark"],
                               "config": report.get("config"), "group": groups.get(s.get("problem_id")),
                               "passed": s.get("status") == "AC" and not s.get("judge_error")}
        extra = {}
        for key, value in s.items():
            if key in _JSON_COLUMNS:
                row[key] = None if value is None else _json(value)
            elif key in _DETAIL_COLUMNS and key not in row:
                row[key] = value
            else:
                extra[key] = value
        if isinstance(row.get("codebleu"), float) and not math.isfinite(row["codebleu"]):
            row["codebleu"] = None
        row["extra"] = _json(extra)
        rows.append(row)
    return rows


def _result_row(report: dict[str, Any], run: str, ts: str) -> dict[str, Any]:
    s = report["summary"]
    table = (s.get("pass@k") or {}).get("all") or {}
    return {"run": run, "timestamp": ts, "benchmark": report["benchmark"],
            "config": report.get("config"), "predictions": s.get("predictions"),
            "problems": s.get("problems_with_predictions"), "pass_at_1": table.get("pass@1"),
            "pass_at_k": _json(s.get("pass@k")), "summary": _json(s),
            "per_problem": _json(report.get("per_problem")),
            "signatures": _json(report.get("signatures") or {}),
            "refinement": _json(report.get("refinement")),
            "provenance": _json(report.get("provenance"))}


def add_run(report: dict[str, Any], folder: str | Path, *, label: str,
            timestamp: str) -> list[Path]:
    """Write one run's details and results files into ``folder`` (replacing that timestamp's
    files of the same benchmark and config) and rewrite the card; returns the files written."""
    import pyarrow.parquet as pq

    folder = Path(folder)
    ts = sanitise(timestamp)
    day = folder / ts
    day.mkdir(parents=True, exist_ok=True)
    task = sanitise(f"{report['benchmark']}_{report.get('config') or 'default'}")
    details = day / f"details_{task}_{ts}.parquet"
    pq.write_table(_table(_detail_rows(report, label, ts), _DETAIL_COLUMNS), details)
    results = day / f"results_{ts}.parquet"
    rows = [r for r in (pq.read_table(results).to_pylist() if results.exists() else ())
            if (r["benchmark"], r["config"]) != (report["benchmark"], report.get("config"))]
    pq.write_table(_table(rows + [_result_row(report, label, ts)], _RESULT_COLUMNS), results)
    write_card(folder)
    return [details, results]


def add_comparison(comparison: str | Path, folder: str | Path, *, timestamp: str) -> list[Path]:
    """A ``qce compare`` folder's tables (``tables/<name>.csv``) as ``comparison_<name>``
    configs (all columns as strings: a table's cells mix numbers and labels)."""
    import pyarrow as pa
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    src = Path(comparison) / "tables"
    tables = sorted(src.glob("*.csv"))
    if not tables:
        raise PublishRunError(f"{comparison}: a comparison folder holds tables/*.csv; none found")
    ts = sanitise(timestamp)
    day = Path(folder) / ts
    day.mkdir(parents=True, exist_ok=True)
    out = []
    for csv in tables:
        header = pcsv.read_csv(csv).column_names
        table = pcsv.read_csv(csv, convert_options=pcsv.ConvertOptions(
            column_types=dict.fromkeys(header, pa.string())))
        path = day / f"comparison_{sanitise(csv.stem)}_{ts}.parquet"
        pq.write_table(table, path)
        out.append(path)
    write_card(Path(folder))
    return out


_FILE = re.compile(r"^(details_(?P<task>.+)|results|comparison_(?P<table>.+))_(?P<ts>\d{4}_\d\d_\d\dT\d\d_\d\d_\d\d)\.parquet$")


def folder_configs(folder: str | Path) -> dict[str, dict[str, str]]:
    """Config name -> {split (timestamp) -> file}, from the files in ``folder``."""
    out: dict[str, dict[str, str]] = {}
    for path in sorted(Path(folder).glob("*/*.parquet")):
        m = _FILE.match(path.name)
        if m is None or path.parent.name != m["ts"]:
            continue
        name = ("details_" + m["task"] if m["task"] else
                "comparison_" + m["table"] if m["table"] else "results")
        out.setdefault(name, {})[m["ts"]] = f"{m['ts']}/{path.name}"
    return out


def write_card(folder: str | Path, repo_id: str | None = None) -> Path:
    """The README.md: YAML ``configs`` (one split per timestamp plus ``latest``) and a card."""
    import yaml

    folder = Path(folder)
    configs = folder_configs(folder)
    yaml_configs = []
    for name in sorted(configs, key=lambda n: (n != "results", n)):
        splits = configs[name]
        files = [{"split": ts, "path": [f]} for ts, f in sorted(splits.items())]
        files.append({"split": "latest", "path": [splits[max(splits)]]})
        yaml_configs.append({"config_name": name, "data_files": files})
    header = yaml.safe_dump({"configs": yaml_configs, "tags": ["quantum-codegen-eval",
                             "evaluation-details"]}, sort_keys=False)
    runs = sorted({ts for splits in configs.values() for ts in splits})
    example = next((n for n in sorted(configs) if n.startswith("details_")), "results")
    repo = repo_id or "<owner>/<name>"
    body = (f"# Evaluation details (quantum-codegen-eval)\n\n"
            f"{len(runs)} run(s); each run is a split named by its start time (UTC), and "
            "`latest` is the newest run of each config.\n\n"
            "- `details_<benchmark>_<config>`: one row per sample: verdict status, error class, "
            "tests, CodeBLEU, ROUGE-L, hallucinated API, refinement history, the full verdict "
            "(JSON).\n"
            "- `results`: one row per run: pass@k, the whole summary, per-problem counts, the "
            "metric signatures, the refinement curve and the provenance (JSON columns).\n"
            "- `comparison_<table>`: the tables of a `qce compare` folder.\n\n"
            "```python\nfrom datasets import load_dataset\n"
            f"details = load_dataset(\"{repo}\", \"{example}\", split=\"latest\")\n```\n\n"
            "Runs: " + ", ".join(f"`{ts}`" for ts in runs) + "\n")
    card = folder / "README.md"
    card.write_text(f"---\n{header}---\n\n{body}", encoding="utf-8")
    return card


def build_run_folder(runs: list[str | Path], folder: str | Path, *,
                     labels: dict[str, str] | None = None) -> dict[str, Any]:
    """Add every run (report folder) or comparison folder in ``runs`` to ``folder``."""
    labels = labels or {}
    written: list[Path] = []
    for run in runs:
        p = Path(run)
        if p.is_dir() and (p / "comparison.json").is_file():
            stamp = _dt.datetime.fromtimestamp((p / "comparison.json").stat().st_mtime,
                                               _dt.timezone.utc).strftime("%Y_%m_%dT%H_%M_%S")
            written += add_comparison(p, folder, timestamp=stamp)
            continue
        report, file = read_report(p)
        written += add_run(report, folder, label=labels.get(str(run), file.parent.name),
                           timestamp=run_timestamp(report, file))
    return {"folder": str(folder), "files": [str(w) for w in written],
            "configs": folder_configs(folder)}


def publish_runs(runs: list[str | Path], repo_id: str, *, folder: str | Path,
                 dry_run: bool = False, private: bool = False, api: Any = None,
                 token: str | None = None) -> str:
    """Build ``folder`` from ``runs``, check that every config loads, and upload it (unless
    ``dry_run``) as :func:`.publish.publish` does; returns a one-line summary."""
    _check_repo_id(repo_id)
    build_run_folder(runs, folder)
    return _finish(folder, repo_id, dry_run=dry_run, private=private, api=api, token=token)


def push_report(report: dict[str, Any], repo_id: str, *, folder: str | Path, label: str,
                dry_run: bool = False, private: bool = False, api: Any = None,
                token: str | None = None) -> str:
    """:meth:`.report.Report.push_to_hub`: one report (as its dict) into ``folder``, then as
    :func:`publish_runs`."""
    _check_repo_id(repo_id)
    add_run(report, folder, label=label, timestamp=run_timestamp(report))
    return _finish(folder, repo_id, dry_run=dry_run, private=private, api=api, token=token)


def _check_repo_id(repo_id: str) -> None:
    if "/" not in repo_id:
        raise PublishRunError(f"repo id {repo_id!r} must be 'owner/name'")


def _finish(folder: str | Path, repo_id: str, *, dry_run: bool, private: bool, api: Any,
            token: str | None) -> str:
    import datasets

    from .publish import DatasetFolderError, check_dataset_folder, publish

    write_card(folder, repo_id)
    bars = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()  # loading every config is a check, not news
    try:
        if dry_run:
            names = check_dataset_folder(folder)  # datasets.load_dataset(folder, config) each
            return f"{folder}: ready for {repo_id} (configs: {', '.join(names)}); nothing uploaded"
        return publish(folder, repo_id, private=private, api=api, token=token)
    except (DatasetFolderError, UploadFailed):  # publish's own one-line errors
        raise
    except (OSError, RuntimeError, ValueError) as exc:  # offline, refused, no token
        first = (str(exc).strip().splitlines() or [""])[0]
        step = f"check of {folder} for" if dry_run else f"upload of {folder} to"
        raise UploadFailed(f"{step} datasets/{repo_id} failed: "
                           f"{type(exc).__name__}: {first[:300]}") from None
    finally:
        if bars:
            datasets.enable_progress_bars()
