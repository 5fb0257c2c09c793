"""The declaration of a benchmark, and the registry that finds them.

Each ``benchmarks/<name>.py`` module declares one :class:`Benchmark` as ``BENCHMARK``; the
registry discovers those modules (no central table), so ``cli``, ``evaluate``, ``report`` and
``feedback`` hold no benchmark names: they read the declaration. An installed distribution adds a
benchmark the same way through an entry point of the group ``quantum_codegen_eval.benchmarks``
(name -> the module declaring ``BENCHMARK``); :func:`origin` says where each came from.

>>> from quantum_codegen_eval.benchmarks.base import get, names
>>> "qcoder" in names() and get("humaneval").name
'qiskit_humaneval'
>>> get("qcoder").extract("```python\\na = 1\\n```\\n```python\\nb = 2\\n```")
'b = 2\\n'
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import pkgutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from ..codeblocks import extract_all_blocks, extract_last_block
from ..hints import did_you_mean

__all__ = ["ENTRY_POINT_GROUP", "Benchmark", "FeedbackWording", "NoJudge", "Origin",
           "UnknownBenchmark", "UsageError", "builders", "extract_all_blocks",
           "extract_last_block", "get", "judged", "missing_fields", "names", "no_group", "origin",
           "registry"]

#: the entry-point group through which an installed distribution adds a benchmark
ENTRY_POINT_GROUP = "quantum_codegen_eval.benchmarks"


class UsageError(ValueError):
    """A request the package cannot serve as asked (``qce`` exits with 2)."""


class UnknownBenchmark(UsageError):
    """A benchmark or config name that no declaration knows."""


class NoJudge(UsageError):
    """Judging was asked of a benchmark that has no judge."""


@dataclass(frozen=True)
class FeedbackWording:
    """How the refinement feedback speaks about this benchmark's programs.

    ``list_failed_tests``: name the failing tests in a WA message (QCoder's tests are hidden
    parameter values, so it does not). ``run_hint``: the sentence that follows a runtime error.
    """

    list_failed_tests: bool = True
    run_hint: str = "Make sure the code runs and returns the right type."


def no_group(record: Any) -> str:
    """Every problem in one group."""
    return "all"


@dataclass(frozen=True)
class Benchmark:
    """Everything the rest of the package needs to know about one benchmark.

    The callables take the benchmark's own typed records (``record_type``). ``judge`` is ``None``
    for a corpus without tests (``evaluate`` then says so). ``extract`` is the one code-extraction
    rule of the benchmark: its judge runs what it returns and the metrics score it.
    """

    name: str
    description: str
    module: str  #: the module holding ``load`` / ``problems`` / ``get_problem``
    hub_id: str
    configs: tuple[str, ...]  #: the first is the default
    splits: Mapping[str, str]  #: config -> split name
    record_type: type
    #: configs whose rows are ``record_type`` records (the others, e.g. QCoder's submissions,
    #: are data only)
    record_configs: tuple[str, ...]
    #: config -> ``datasets.Features`` written by the builder and read into ``record_type``
    features: Callable[[str], Any]
    language: Callable[[str | None], str]  #: config -> code language (CodeBLEU, hallucination)
    group_by: str  #: what the report groups pass@k by, e.g. "year" or "contest"
    group: Callable[[Any], str]  #: record -> group label
    prompt: Callable[[Any], str]
    reference: Callable[[Any], str | None]  #: record -> what CodeBLEU / ROUGE-L compare with
    reference_kind: Callable[[Any], str]  #: record -> e.g. "template", "reference solution"
    extract: Callable[[str], str | None]  #: completion -> code (``None``: no code)
    judge: Callable[..., Any] | None  #: ``judge(**options)`` -> a Judge, or None
    #: record, extracted code -> the program text metrics compare (the judge's assembly)
    candidate: Callable[[Any, str], str | None] | None = None
    feedback: FeedbackWording = field(default_factory=FeedbackWording)
    builder: str | None = None  #: module whose ``build(source, out, **options)`` writes the data
    environments: tuple[str, ...] = ()  #: era environments its judge may run in
    #: a second pass@k table of the report, e.g. QHack's per challenge category
    subgroup_by: str = ""
    subgroup: Callable[[Any], str] | None = None
    aliases: tuple[str, ...] = ()

    @property
    def loader(self) -> ModuleType:
        """The benchmark's module (``load``, ``problems``, ``get_problem``)."""
        return importlib.import_module(self.module)

    def check_config(self, config: str | None) -> str:
        """``config`` or the default; :class:`UnknownBenchmark` naming the known ones."""
        cfg = config or self.configs[0]
        if cfg not in self.configs:
            raise UnknownBenchmark(f"unknown {self.name} config {cfg!r}; known: "
                                   f"{', '.join(self.configs)}{did_you_mean(cfg, self.configs)}")
        return cfg

    def check_judged_config(self, config: str | None) -> str:
        """:meth:`check_config`, and a config whose rows are problems to judge (not data only,
        such as QCoder's human submissions); :class:`UnknownBenchmark` otherwise."""
        cfg = self.check_config(config)
        if cfg not in self.record_configs:
            raise UnknownBenchmark(f"{self.name} config {cfg!r} is data only (no problems to "
                                   f"judge); evaluate one of: {', '.join(self.record_configs)}")
        return cfg

    def candidate_code(self, record: Any, completion: str) -> str | None:
        """The program text metrics compare with the reference: the code :attr:`extract` takes
        from ``completion``, assembled by :attr:`candidate` where the benchmark has one."""
        code = self.extract(completion)
        if self.candidate is not None and record is not None:
            return self.candidate(record, code or "")
        return code

    def make_judge(self, **options: Any) -> Any:
        """``judge(**options)``, handed this benchmark's extraction rule as its ``extract``: the
        stage driver gives the judge the code that rule takes from each completion
        (``judges.base.code_of``); the judge itself never extracts."""
        if self.judge is None:
            raise NoJudge(f"{self.name} has no judge (its records carry no tests), so it cannot "
                          "be judged; its records serve as references for CodeBLEU / ROUGE-L")
        judge = self.judge(**options)
        judge.extract = self.extract
        return judge


def _modules() -> list[str]:
    here = str(Path(__file__).resolve().parent)
    return sorted(m.name for m in pkgutil.iter_modules([here])
                  if not m.name.startswith("_") and m.name != "base")


@dataclass(frozen=True)
class Origin:
    """Where a benchmark's declaration came from: ``built-in`` (a module of this package) or
    ``plugin`` (an entry point of ``distribution`` ``version``)."""

    kind: str
    module: str
    distribution: str = ""
    version: str = ""

    def __str__(self) -> str:
        return "built-in" if self.kind == "built-in" else f"{self.distribution} {self.version}"


class _BadPlugin(Exception):
    """A plugin entry point that does not give a usable declaration (the message says why)."""


def _plugin(entry: importlib.metadata.EntryPoint) -> Benchmark:
    """The declaration an entry point names: a module declaring ``BENCHMARK``, or (``module:attr``)
    the declaration itself."""
    found = entry.load()
    bench = getattr(found, "BENCHMARK", None) if isinstance(found, ModuleType) else found
    if not isinstance(bench, Benchmark):
        raise _BadPlugin(f"{entry.value} declares no Benchmark as BENCHMARK")
    if bench.name != entry.name:
        raise _BadPlugin(f"the entry point {entry.name!r} names a declaration of {bench.name!r}")
    if bad := missing_fields(bench):
        raise _BadPlugin(f"its declaration leaves {', '.join(bad)} empty")
    return bench


def _entry_points() -> list[importlib.metadata.EntryPoint]:
    """The group's entry points, once each (a distribution seen twice on ``sys.path`` counts
    once), by name."""
    seen = {(e.name, e.value): e for e in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    return sorted(seen.values(), key=lambda e: e.name)


@cache
def _discover() -> tuple[dict[str, Benchmark], dict[str, Origin]]:
    out: dict[str, Benchmark] = {}
    origins: dict[str, Origin] = {}
    for name in _modules():
        module = importlib.import_module(f"{__package__}.{name}")
        bench = getattr(module, "BENCHMARK", None)
        if isinstance(bench, Benchmark):
            out[bench.name] = bench
            origins[bench.name] = Origin("built-in", module.__name__)
    for entry in _entry_points():
        dist = entry.dist.name if entry.dist else "?"
        version = entry.dist.version if entry.dist else "?"
        try:
            bench = _plugin(entry)
            if bench.name in out:
                raise _BadPlugin(f"{bench.name!r} is already the {origins[bench.name]} "
                                 "benchmark of that name")
            if taken := _spellings(bench) & {a for b in out.values() for a in _spellings(b)}:
                raise _BadPlugin(f"its alias {sorted(taken)[0]!r} names another benchmark")
        except Exception as exc:  # any failure of a plugin is its own, never the others'
            why = str(exc) if isinstance(exc, _BadPlugin) else f"{type(exc).__name__}: {exc}"
            print(f"qce: benchmark plugin {entry.name!r} ({dist} {version}) not loaded: "
                  f"{why.splitlines()[0] if why.strip() else type(exc).__name__}",
                  file=sys.stderr, flush=True)
            continue
        out[bench.name] = bench
        origins[bench.name] = Origin("plugin", bench.module, dist, version)
    return out, origins


def registry() -> dict[str, Benchmark]:
    """Every declared benchmark by name: the ``benchmarks/<name>.py`` modules that define
    ``BENCHMARK``, then the entry points of :data:`ENTRY_POINT_GROUP` (a plugin that fails to
    load is named in one line on stderr and left out)."""
    return dict(_discover()[0])


def origin(name: str) -> Origin:
    """Where benchmark ``name`` (or an alias) was declared."""
    return _discover()[1][get(name).name]


def judged() -> list[str]:
    """The benchmarks that have a judge."""
    return [name for name, bench in registry().items() if bench.judge is not None]


def names() -> list[str]:
    return list(registry())


def _spellings(bench: Benchmark) -> set[str]:
    """The names :func:`get` accepts for ``bench``."""
    return {form for alias in (bench.name, *bench.aliases)
            for form in (alias.lower(), alias.lower().replace("_", "-"))}


def _aliases() -> dict[str, str]:
    return {form: bench.name for bench in registry().values() for form in _spellings(bench)}


def get(name: str) -> Benchmark:
    """The declaration of benchmark ``name`` or one of its aliases."""
    key = _aliases().get(str(name).lower())
    if key is None:
        raise UnknownBenchmark(f"unknown benchmark {name!r}; known: {', '.join(names())}"
                               f"{did_you_mean(str(name), _aliases())}")
    return registry()[key]


def builders() -> dict[str, str]:
    """Dataset name -> builder module: the benchmarks' builders, plus any other module of
    ``quantum_codegen_eval.loaders`` that defines a ``build`` function (e.g. the API index;
    read from the source, so listing them imports none)."""
    out = {b.name: b.builder for b in registry().values() if b.builder}
    try:
        loaders = importlib.import_module("quantum_codegen_eval.loaders")
    except ImportError:  # pragma: no cover - loaders ship with the package
        return out
    known = set(out.values())
    for m in pkgutil.iter_modules(loaders.__path__):
        mod = f"{loaders.__name__}.{m.name}"
        if not m.name.startswith("_") and mod not in known and m.name not in out \
                and _defines_build(mod):
            out[m.name] = mod
    return out


def _defines_build(module: str) -> bool:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return False
    return "\ndef build(" in Path(spec.origin).read_text(encoding="utf-8")


def missing_fields(bench: Benchmark) -> list[str]:
    """The declaration's required fields that are empty (the completeness test uses this)."""
    optional = {"judge", "candidate", "builder", "environments", "aliases", "feedback",
                "hub_id", "subgroup_by", "subgroup"}
    bad = [f.name for f in fields(bench) if f.name not in optional
           and getattr(bench, f.name) in (None, "", (), {})]
    bad += [f"splits[{c}]" for c in bench.configs if c not in bench.splits]
    bad += [f"record_configs[{c}]" for c in bench.record_configs if c not in bench.configs]
    return bad
