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
from bisect import bisect_right
from typing import Literal, NamedTuple

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+.-]*)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$",
                    re.MULTILINE | re.DOTALL)
_OPENING = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[ \t]*(?:python|py|python3)?[ \t]*\n",
                      re.MULTILINE | re.IGNORECASE)
_OPEN_LINE = re.compile(r"[ \t]*(`{3,}|~{3,})[ \t]*([\w+.-]*)")
_PY_LANGS = {"", "python", "py", "python3", "ipython", "pycon"}


class _Block(NamedTuple):
    lang: str  # as written
    body: str
    end: int  # end of the closing fence's line (before its newline)


def _blocks(text: str) -> list[_Block]:
    """What ``_FENCE.finditer(text)`` matches, in linear time: the regex retries every opening
    line against the rest of the text (quadratic: minutes on 10**5 unclosed fences). Same rule:
    an opening line (a fence of >= 3 backticks or tildes, optionally shortened, then anything)
    ends at the first later line holding exactly that fence; openings are tried top down, each
    fence length from the longest, and a block's lines are not reused."""
    starts, lines, pos = [], [], 0
    for line in text.split("\n"):
        starts.append(pos)
        lines.append(line)
        pos += len(line) + 1
    closers: dict[tuple[str, int], list[int]] = {}
    for i, line in enumerate(lines):
        core = line.strip(" \t")
        if len(core) >= 3 and core[0] in "`~" and core == core[0] * len(core):
            closers.setdefault((core[0], len(core)), []).append(i)
    out: list[_Block] = []
    i, last = 0, len(lines) - 1  # the last line has no newline: it opens nothing
    while i < last:
        m = _OPEN_LINE.match(lines[i])
        if m is None:
            i += 1
            continue
        fence = m.group(1)
        for f in range(len(fence), 2, -1):
            rows = closers.get((fence[0], f))
            k = bisect_right(rows, i) if rows else 0
            if rows and k < len(rows):
                j = rows[k]
                out.append(_Block(m.group(2) if f == len(fence) else "",
                                  text[starts[i + 1]:starts[j]], starts[j] + len(lines[j])))
                i = j + 1
                break
        else:
            i += 1
    return out


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """All fenced blocks as (language, body), in order."""
    return [(b.lang.lower(), b.body) for b in _blocks(text)]


def extract_code(text: str, *, plain_ok: bool = False,
                 which: Literal["all", "last"] = "all") -> str | None:
    """The code in a completion.

    Python-tagged (or untagged) fenced blocks: all of them joined in order (``which="all"``) or
    the last one (``which="last"``). With none, an opening fence left unterminated after the last
    complete block takes the rest of the text. Text without fences is returned as is when
    ``plain_ok`` (it is taken to be code), else ``None``; text whose only blocks are in other
    languages has no code.
    """
    matches = _blocks(text)
    blocks = [b.body for b in matches if b.lang.lower() in _PY_LANGS]
    if blocks:
        return "\n".join(blocks) if which == "all" else blocks[-1]
    tail = text[matches[-1].end:] if matches else text  # never a closing fence as an opening
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
