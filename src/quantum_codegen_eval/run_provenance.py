"""Collect a run's :class:`~.provenance.Provenance` from the declaration, the judge, the records
and the environments (a driver: ``evaluate`` calls :func:`collect`).

Where each fact comes from: judge options from ``judge.signature()``; upstream commits from the
records' ``upstream_commit`` (the builder writes it into every record), else the pinned commits
of the shipped manifest; the manifest hash from the shipped manifest; the environments from the
era environments' stamps (``qce-env.json``: Python version and pinned requirements) when the
judge runs in them, else this interpreter with its installed PennyLane / Qiskit.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import platform
from collections.abc import Iterable
from typing import Any

from .judges.base import judge_signature
from .metrics.signature import package_version
from .provenance import Environment, JudgeSignature, Provenance, RunFacts


def _field(record: Any, name: str) -> Any:
    if isinstance(record, dict):
        return record.get(name)
    value = getattr(record, name, None)
    if value is None:
        extra = getattr(record, "extra", None)
        value = extra.get(name) if isinstance(extra, dict) else None
    return value


def _pin(requirements: Iterable[str], name: str) -> str:
    for req in requirements:
        if req.lower().startswith(name + "=="):
            return req.split("==", 1)[1]
    return ""


def current_environment() -> Environment:
    """This interpreter, with its installed PennyLane and Qiskit versions."""
    def v(dist: str) -> str:
        found = package_version(dist)
        return "" if found == "none" else found

    return Environment("current", python=platform.python_version(), pennylane=v("pennylane"),
                       qiskit=v("qiskit"))


def era_environment(bench: Any, name: str) -> Environment:
    """Era environment ``name`` of ``bench`` from its stamp (not built: the recipe's pins)."""
    manager = bench.loader.environments()
    rows = {row["name"]: row for row in manager.list_envs()}
    stamp = (rows.get(name) or {}).get("built") or {}
    reqs = stamp.get("requirements") or manager.recipe(name).requirements
    return Environment(name, python=str(stamp.get("python_version") or ""),
                       pennylane=_pin(reqs, "pennylane"), qiskit=_pin(reqs, "qiskit"),
                       recipe="fallback" if stamp.get("fallback") else "era")


def environments(bench: Any, options: dict[str, Any], records: Iterable[Any]) -> tuple[Environment, ...]:
    """The environments the judge ran programs in."""
    if bench.environments and options.get("env", "era") == "era" and not options.get("python"):
        names = sorted({str(n) for r in records if (n := _field(r, "era_env"))})
        if names:
            return tuple(era_environment(bench, n) for n in names)
    return (current_environment(),)


def upstream_facts(bench: Any, records: Iterable[Any]) -> tuple[tuple[str, ...], str]:
    """(upstream commits, manifest hash) of the records' data."""
    from . import upstream

    commits = sorted({str(c) for r in records if (c := _field(r, "upstream_commit"))})
    path = upstream.manifest_path(bench.name)
    if not path.is_file():
        return tuple(commits), ""
    if not commits:
        commits = sorted({repo.commit for repo in upstream.repositories(bench.name).values()})
    return tuple(commits), hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def collect(*, bench: Any, config: str | None, judge: Any, records: dict[str, Any],
            judged: Iterable[str], started: float, seconds: float, workers: int | None,
            data: str) -> Provenance:
    """The provenance of one run. ``judged``: the problem ids with predictions (their era
    environments are the ones used)."""
    from . import __version__

    options = judge_signature(judge)
    limits = sorted((str(p), float(t)) for p, r in records.items()
                    if isinstance(t := _field(r, "time_limit"), (int, float)))
    if limits:  # the records' calibrated time limits (QHack), as one digest
        options["time_limits"] = hashlib.sha256(repr(limits).encode()).hexdigest()[:12]
    used = [records[p] for p in dict.fromkeys(judged) if p in records]
    commits, manifest = upstream_facts(bench, records.values())
    signature = JudgeSignature(benchmark=bench.name, config=config, judge=options,
                               environments=environments(bench, options, used), commits=commits,
                               manifest=manifest, package=__version__)
    when = _dt.datetime.fromtimestamp(started, _dt.timezone.utc).isoformat(timespec="seconds")
    run = RunFacts(started=when, seconds=round(seconds, 2), workers=workers,
                   platform=platform.platform(terse=True), python=platform.python_version(),
                   data=data)
    return Provenance(signature, run)
