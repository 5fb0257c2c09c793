"""Getting code out of raw model output, and the extraction rules a benchmark declares
(``extract_all_blocks``, ``extract_last_block``): its judge and its metrics call the same one.

>>> extract_code("Here you go:\\n```python\\nx = 1\\n```\\nDone.")
'x = 1\\n'
>>> extract_code("x = 1") is None, extract_code("x = 1", plain_ok=True)
(True, 'x = 1')
>>> extract_code("```python\\na = 1\\n```\\n```python\\nb = 2\\n```", which="last")
'b = 2\\n'
"""

from __future__ import annotations

import re
from typing import Literal

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+.-]*)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$",
                    re.MULTILINE | re.DOTALL)
_OPENING = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[ \t]*(?:python|py|python3)?[ \t]*\n",
                      re.MULTILINE | re.IGNORECASE)
_PY_LANGS = {"", "python", "py", "python3", "ipython", "pycon"}


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """All fenced blocks as (language, body), in order."""
    return [(m.group(2).lower(), m.group(3)) for m in _FENCE.finditer(text)]


def extract_code(text: str, *, plain_ok: bool = False,
                 which: Literal["all", "last"] = "all") -> str | None:
    """The code in a completion.

    Python-tagged (or untagged) fenced blocks: all of them joined in order (``which="all"``) or
    the last one (``which="last"``). With none, an opening fence left unterminated after the last
    complete block takes the rest of the text. Text without fences is returned as is when
    ``plain_ok`` (it is taken to be code), else ``None``; text whose only blocks are in other
    languages has no code.
    """
    matches = list(_FENCE.finditer(text))
    blocks = [m.group(3) for m in matches if m.group(2).lower() in _PY_LANGS]
    if blocks:
        return "\n".join(blocks) if which == "all" else blocks[-1]
    tail = text[matches[-1].end():] if matches else text  # never a closing fence as an opening
    opening = _OPENING.search(tail)
    if opening:
        return tail[opening.end():]
    if matches:  # only blocks in other languages
        return None
    return text if plain_ok else None


def extract_all_blocks(completion: str) -> str | None:
    """Rule: Python (or untagged) fenced blocks joined in order; text without fences is code."""
    return extract_code(completion, plain_ok=True)


def extract_last_block(completion: str) -> str | None:
    """Rule: the last Python (or untagged) fenced block; text without fences is code."""
    return extract_code(completion, plain_ok=True, which="last")
