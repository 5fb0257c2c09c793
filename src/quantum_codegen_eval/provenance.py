"""Provenance of a run: the judge signature (what decides comparability) and the run facts.

The **judge signature** holds everything that can change a verdict: benchmark, config, the
dataset's upstream commits and manifest hash, the judge's options (time limits, seed, ...), the
environments the programs ran in (with their Python / PennyLane / Qiskit versions) and the
package version. Two runs are comparable iff their judge signatures are equal. The **run facts**
(start, duration, workers, platform, Python of the driver, where the data came from) never
decide anything.

Like the metric signatures (:mod:`.metrics.signature`), the judge signature renders as one
compact string, e.g.
``qhack|cfg:2023|judge:env=era,time_scale=1|env:qhack-2023(py3.11,pl0.28.0)|src:efc516a|manifest:3f2a...|qce:0.1.0``;
the version in it is the recorded one, not the installed one (a stored report keeps its own).

>>> env = Environment("current", python="3.12", qiskit="1.4.0")
>>> sig = JudgeSignature("sample", "qiskit", {"time_limit": 30.0}, (env,), (), "", "0.1.0")
>>> sig.render()
'sample|cfg:qiskit|judge:time_limit=30|env:current(py3.12,qk1.4.0)|src:none|qce:0.1.0'
>>> JudgeSignature.from_dict(sig.to_dict()) == sig
True
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

__all__ = ["Environment", "JudgeSignature", "Provenance", "ProvenanceError", "RunFacts",
           "signature_differences"]


class ProvenanceError(ValueError):
    """A report's provenance is missing or unreadable."""


@dataclass(frozen=True)
class Environment:
    """An interpreter the judged programs ran in: an era environment or ``current`` (this one).
    ``recipe``: ``era`` or ``fallback`` for an era environment (its stamp), else empty."""

    name: str
    python: str = ""
    pennylane: str = ""
    qiskit: str = ""
    recipe: str = ""

    def render(self) -> str:
        parts = [f"py{self.python}" if self.python else "",
                 f"pl{self.pennylane}" if self.pennylane else "",
                 f"qk{self.qiskit}" if self.qiskit else "",
                 self.recipe if self.recipe not in ("", "era") else ""]
        inner = ",".join(p for p in parts if p)
        return f"{self.name}({inner})" if inner else self.name


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return "+".join(_fmt(v) for v in value)
    return str(value)


@dataclass(frozen=True)
class JudgeSignature:
    """What decides comparability (see the module docstring). ``commits``: the upstream
    repositories' commits the records were built from; ``manifest``: a hash of the shipped
    manifest that verified them (empty for data without one, e.g. the bundled sample)."""

    benchmark: str
    config: str | None
    judge: dict[str, Any]
    environments: tuple[Environment, ...]
    commits: tuple[str, ...]
    manifest: str
    package: str

    def render(self) -> str:
        """The compact ``|``-joined form, in the style of :func:`.metrics.signature.make_signature`
        (which cannot be reused here: it appends the *installed* version)."""
        judge = ",".join(f"{k}={_fmt(v)}" for k, v in sorted(self.judge.items())) or "default"
        parts = [self.benchmark, f"cfg:{self.config or '-'}", f"judge:{judge}",
                 f"env:{'+'.join(e.render() for e in self.environments) or 'none'}",
                 f"src:{'+'.join(c[:7] for c in self.commits) or 'none'}"]
        if self.manifest:
            parts.append(f"manifest:{self.manifest}")
        parts.append(f"qce:{self.package}")
        return "|".join(parts)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["environments"] = [asdict(e) for e in self.environments]
        out["commits"] = list(self.commits)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> JudgeSignature:
        return cls(benchmark=str(data["benchmark"]), config=data.get("config"),
                   judge=dict(data.get("judge") or {}),
                   environments=tuple(Environment(**e) for e in data.get("environments") or ()),
                   commits=tuple(data.get("commits") or ()), manifest=str(data.get("manifest", "")),
                   package=str(data["package"]))


@dataclass(frozen=True)
class RunFacts:
    """Facts of one run that never decide comparability."""

    started: str  #: ISO 8601, UTC
    seconds: float
    workers: int | None
    platform: str
    python: str
    data: str = ""  #: where the records came from (a folder, the cache, the package)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunFacts:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass(frozen=True)
class Provenance:
    """A report's provenance: ``signature`` (comparability) and ``run`` (facts)."""

    signature: JudgeSignature
    run: RunFacts
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"signature": self.signature.to_dict(), "signature_string": self.signature.render(),
                "run": asdict(self.run), **({"extra": self.extra} if self.extra else {})}

    @classmethod
    def from_dict(cls, data: Any, where: str = "report") -> Provenance:
        """Read what :meth:`to_dict` wrote; :class:`ProvenanceError` naming ``where`` if not."""
        if not isinstance(data, dict):
            raise ProvenanceError(f"{where} has no provenance (written before provenance was "
                                  "recorded, or made by hand); re-evaluate it, or pass "
                                  "--allow-mismatch")
        try:
            return cls(JudgeSignature.from_dict(data["signature"]), RunFacts.from_dict(data["run"]),
                       dict(data.get("extra") or {}))
        except (KeyError, TypeError, ValueError) as exc:
            raise ProvenanceError(f"{where}: unreadable provenance ({type(exc).__name__}: "
                                  f"{exc})") from None


_LABELS = {"benchmark": "benchmark", "config": "config", "judge": "judge options",
           "environments": "environment", "commits": "upstream commits",
           "manifest": "manifest hash", "package": "package version"}


def signature_differences(a: JudgeSignature, b: JudgeSignature) -> list[str]:
    """What differs between two judge signatures, one short phrase per field, e.g.
    ``environment qhack-2023(py3.11,pl0.28.0) vs qhack-2023(py3.9,pl0.28.0)``."""
    out = []
    for name, label in _LABELS.items():
        x, y = getattr(a, name), getattr(b, name)
        if x == y:
            continue
        if name == "environments":
            x, y = "+".join(e.render() for e in x), "+".join(e.render() for e in y)
        elif name == "judge":
            keys = sorted(set(x) | set(y), key=str)
            diff = [k for k in keys if x.get(k) != y.get(k)]
            x = ",".join(f"{k}={_fmt(x.get(k))}" for k in diff)
            y = ",".join(f"{k}={_fmt(y.get(k))}" for k in diff)
        elif name == "commits":
            x, y = "+".join(c[:7] for c in x) or "none", "+".join(c[:7] for c in y) or "none"
        out.append(f"{label} {x} vs {y}")
    return out
