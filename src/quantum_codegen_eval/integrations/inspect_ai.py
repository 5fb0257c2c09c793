"""An inspect_ai task and scorer: the benchmark's prompts as samples, our judge as the scorer.

``inspect eval quantum_codegen_eval/qcoder --model openai/gpt-4o`` (the tasks are registered
through inspect's entry point, one per judged benchmark: :mod:`._inspect_tasks`), or in Python
``inspect_ai.eval(task("qcoder"), model=...)``. Each score is 1 (``AC``) or 0 with the verdict's
status, error class and judge message in its metadata; the log reads back with
``qce evaluate LOG --benchmark qcoder`` (docs/integrations/inspect_ai.md). Needs the
``[inspect]`` extra.
"""

from __future__ import annotations

from collections.abc import Iterable

import anyio
from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.dataset import Sample as InspectSample
from inspect_ai.scorer import Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState, generate

from . import _judging


def task(benchmark: str, config: str | None = None, data_dir: str | None = None, *,
         ids: Iterable[str] | None = None, epochs: int = 1) -> Task:
    """The inspect ``Task`` of ``benchmark`` (its default judged config unless ``config``):
    one sample per problem (sample id = problem id, input = its prompt; ``ids``: only these),
    ``epochs`` completions each, scored by :func:`judge`."""
    found = _judging.problems(benchmark, config, None if data_dir is None else str(data_dir))
    wanted = None if ids is None else set(ids)
    unknown = sorted(wanted - set(found.records)) if wanted is not None else []
    if unknown:
        raise KeyError(f"{found.bench.name} config {found.config!r}: no problem {unknown[0]!r}")
    samples = [InspectSample(input=found.bench.prompt(record), id=pid,
                             metadata={"benchmark": found.bench.name, "config": found.config})
               for pid, record in found.records.items() if wanted is None or pid in wanted]
    return Task(dataset=MemoryDataset(samples, name=f"qce_{found.bench.name}"), solver=generate(),
                scorer=judge(found.bench.name, found.config,
                             None if data_dir is None else str(data_dir)),
                epochs=epochs, name=f"qce_{found.bench.name}",
                metadata={"benchmark": found.bench.name, "config": found.config})


@scorer(metrics=[accuracy(), stderr()])
def judge(benchmark: str, config: str | None = None, data_dir: str | None = None) -> Scorer:
    """Our judge as an inspect scorer: 1 for ``AC``, else 0; metadata ``status``,
    ``error_class``, ``message`` (and the tests passed / total)."""

    async def score(state: TaskState, target: Target) -> Score:
        completion = state.output.completion if state.output is not None else ""
        verdict = await anyio.to_thread.run_sync(
            _judging.judge, benchmark, config, data_dir, str(state.sample_id), completion)
        return Score(value=1 if verdict.passed else 0, answer=completion,
                     explanation=verdict.status + (f": {verdict.message}" if verdict.message else ""),
                     metadata=_judging.metadata(verdict))

    return score
