"""The benchmarks: one module each, each declaring a :class:`~.base.Benchmark` as ``BENCHMARK``.

The registry (:mod:`.base`) discovers the modules of this package that declare one, and the
modules named by the entry points of the group ``quantum_codegen_eval.benchmarks`` (a benchmark
from outside: docs/writing-a-benchmark.md), so adding a benchmark touches its own files only.
Every benchmark module also provides::

    HUB_ID: str                      # default Hub dataset id
    CONFIGS: tuple[str, ...]         # dataset configs; the first is the default
    load(config=None, *, data_dir=None, split=None) -> datasets.Dataset
    problems(config=None, *, data_dir=None) -> dict[str, Record]   # typed records by id
    get_problem(problem_id, *, data_dir=None) -> Record
    make_judge(**options) -> Judge                   # see judges/base.py (not for pennysynth)
    prompt(record) -> str                            # what a model is given
    reference_code(record) -> str | None             # what CodeBLEU/ROUGE-L compare against

``data_dir`` is a local dataset folder (as written by ``qce build``); without it the dataset is
built in the package's cache on first use (``datasets_cache.dataset_dir``; PennySynth: the Hub). PennySynth has no judge (its pairs carry no tests);
``qiskit_humaneval.get_problem`` also takes ``config=`` or an id such as ``"hard:qiskitHumanEval/3"``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from .base import Benchmark, NoJudge, UnknownBenchmark, UsageError, get, names, registry

__all__ = ["Benchmark", "NoJudge", "UnknownBenchmark", "UsageError", "benchmark_module", "get", "load_benchmark", "names",
           "registry"]


def benchmark_module(name: str) -> ModuleType:
    """The module of benchmark ``name`` (``UnknownBenchmark``, a ``ValueError``, naming the known
    ones otherwise)."""
    return get(name).loader


def load_benchmark(name: str, config: str | None = None, *, data_dir: Any = None, split: str | None = None):
    """Load a benchmark as a ``datasets.Dataset``: ``load_benchmark("qcoder", "problems",
    data_dir="path/to/qcoder")`` holds one row per problem (``ds[0]["id"] == "QPC001_A1"``)."""
    bench = get(name)
    return bench.loader.load(bench.check_config(config), data_dir=data_dir, split=split)


def __getattr__(name: str) -> Any:
    if name == "BENCHMARKS":  # the former central table, kept for compatibility: name -> module
        return {b.name: b.module for b in registry().values()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
