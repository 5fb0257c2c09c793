"""Getting code out of raw model output.

>>> extract_code("Here you go:\\n```python\\nx = 1\\n```\\nDone.")
'x = 1\\n'
>>> extract_code("x = 1") is None, extract_code("x = 1", plain_ok=True)
(True, 'x = 1')
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+.-]*)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$",
                    re.MULTILINE | re.DOTALL)
_PY_LANGS = {"", "python", "py", "python3", "ipython", "pycon"}


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """All fenced blocks as (language, body), in order."""
    return [(m.group(2).lower(), m.group(3)) for m in _FENCE.finditer(text)]


def extract_code(text: str, *, plain_ok: bool = False) -> str | None:
    """The code in a completion.

    Python-tagged (or untagged) fenced blocks are joined in order; with none, an unterminated
    opening fence takes the rest of the text. Text without fences is returned as is when
    ``plain_ok`` (it is taken to be code), else ``None``.
    """
    blocks = [body for lang, body in fenced_blocks(text) if lang in _PY_LANGS]
    if blocks:
        return "\n".join(blocks)
    opening = re.search(r"^[ \t]*```[ \t]*(?:python|py|python3)?[ \t]*\n", text, re.MULTILINE)
    if opening:
        return text[opening.end():]
    if fenced_blocks(text):  # only blocks in other languages
        return None
    return text if plain_ok else None
