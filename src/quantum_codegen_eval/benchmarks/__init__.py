"""The benchmarks: one module each, all with the same small surface.

Every benchmark module (``qhack``, ``qcoder``, ``qiskit_humaneval``, ``pennysynth``) provides::

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
Optional: ``candidate_code(record, completion)`` (the program text metrics compare, where the
judge assembles one) and ``language(config)`` (the code language CodeBLEU uses).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

#: benchmark name -> module (the names ``qce`` and ``evaluate`` accept)
BENCHMARKS = {
    "qhack": "quantum_codegen_eval.benchmarks.qhack",
    "qcoder": "quantum_codegen_eval.benchmarks.qcoder",
    "qiskit_humaneval": "quantum_codegen_eval.benchmarks.qiskit_humaneval",
    "pennysynth": "quantum_codegen_eval.benchmarks.pennysynth",
    "sample": "quantum_codegen_eval.benchmarks.sample",
}

_ALIASES = {"qiskit-humaneval": "qiskit_humaneval", "humaneval": "qiskit_humaneval",
            "pennysynth-13k": "pennysynth"}


def benchmark_module(name: str) -> ModuleType:
    """The module of benchmark ``name`` (``ValueError`` naming the known ones otherwise)."""
    key = _ALIASES.get(name.lower(), name.lower())
    if key not in BENCHMARKS:
        raise ValueError(f"unknown benchmark {name!r}; known: {', '.join(BENCHMARKS)}")
    return importlib.import_module(BENCHMARKS[key])


def load_benchmark(name: str, config: str | None = None, *, data_dir: Any = None, split: str | None = None):
    """Load a benchmark as a ``datasets.Dataset``.

    >>> ds = load_benchmark("qcoder", "problems", data_dir="path/to/qcoder")  # doctest: +SKIP
    >>> ds[0]["id"]  # doctest: +SKIP
    'QPC001_A1'
    """
    return benchmark_module(name).load(config, data_dir=data_dir, split=split)
