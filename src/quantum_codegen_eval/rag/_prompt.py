"""The prompt with retrieved examples, in the paper's shape: the examples, then the
selective-context instruction, then the task (the benchmark's own prompt, unchanged)."""

from __future__ import annotations

from collections.abc import Sequence

#: the instruction between the examples and the task: use what is relevant, ignore the rest
SELECTIVE_CONTEXT = (
    "The examples above come from a verified PennyLane corpus and were retrieved by similarity; "
    "they may or may not be relevant. Use an example only where it helps with the task below, "
    "ignore any that does not apply, and do not copy code that does not fit the task (the "
    "task's PennyLane version and template take precedence).")


def rag_prompt(task: str, examples: Sequence[tuple[str, str]]) -> str:
    """The prompt for ``task`` with ``examples`` (instruction, code), best first; with no
    examples (a fallback) it is ``task`` itself, so plain and RAG runs differ only where
    something was retrieved."""
    if not examples:
        return task
    parts = ["Here are examples of PennyLane code.", ""]
    for i, (instruction, code) in enumerate(examples, 1):
        parts += [f"### Example {i}", instruction.strip(), "", "```python", code.rstrip(), "```", ""]
    parts += [SELECTIVE_CONTEXT, "", "### Task", "", task]
    return "\n".join(parts)
