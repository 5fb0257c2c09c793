"""The synthesis prompt (seed material, then the request for one new instruction–code pair)
and the reading of the model's answer."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..codeblocks import extract_last_block
from ._seeds import Seed

_INSTRUCTION = re.compile(r"^\s*(?:\**instruction\**\s*:\s*)", re.I)


def synthesis_prompt(seeds: Sequence[Seed], pennylane_version: str) -> str:
    """Seeds first, then what to write and the answer's form."""
    parts = [f"You write training data for code generation with PennyLane {pennylane_version}.",
             "", "Seed material:", ""]
    for i, s in enumerate(seeds, 1):
        parts += [f"### Seed {i} ({s.source_category})", s.text.strip(), "", "```python",
                  s.code.rstrip(), "```", ""]
    parts += ["Write one new, self-contained task inspired by the seed material (not a copy of "
              "it): an instruction that states the task in one paragraph, then a complete "
              f"PennyLane {pennylane_version} program that solves it and runs as it is (no "
              "files, no network, no plots). Answer in exactly this form:", "",
              "Instruction: <the instruction>", "```python", "<the program>", "```"]
    return "\n".join(parts)


def parse_answer(answer: str) -> tuple[str, str] | None:
    """(instruction, code) of an answer: the last python block is the code, the text before
    the first fence (``Instruction:`` removed) the instruction; None if either is missing."""
    if "```" not in answer:
        return None
    code = extract_last_block(answer)
    head = answer.split("```", 1)[0]
    instruction = _INSTRUCTION.sub("", head).strip()
    if not code or not code.strip() or not instruction:
        return None
    return instruction, code
