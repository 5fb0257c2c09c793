"""inspect's entry point (``[project.entry-points.inspect_ai]``): one registered task per
judged benchmark, ``quantum_codegen_eval/<name>`` (``-T config=... -T data_dir=...``), made
from the benchmark registry when inspect loads this module."""

from __future__ import annotations

from typing import Any

from inspect_ai import Task
from inspect_ai import task as register

from ..benchmarks.base import registry
from .inspect_ai import task as benchmark_task


def _factory(name: str) -> Any:
    def make(config: str | None = None, data_dir: str | None = None, epochs: int = 1) -> Task:
        return benchmark_task(name, config, data_dir, epochs=epochs)

    make.__name__ = make.__qualname__ = name
    make.__doc__ = f"The {name} benchmark, judged by quantum-codegen-eval."
    return register(name=name)(make)


TASKS = {name: _factory(name) for name, bench in registry().items() if bench.judge is not None}
