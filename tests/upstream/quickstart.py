"""Run the runnable examples of docs/quickstart.md (its ```bash and ```python blocks under the
given ``##`` / ``###`` headings), in order, in one folder, with a given interpreter and PATH."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "quickstart.md"


def _bodies() -> dict[str, str]:
    """Heading (``##`` or ``###``) -> the text up to the next heading, in page order."""
    parts = re.split(r"^#{2,3} (.+)$", PAGE.read_text(encoding="utf-8"), flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def blocks(section: str) -> list[tuple[str, str]]:
    """(language, code) of the bash/python blocks under the heading ``section``."""
    return re.findall(r"^```(bash|python)\n(.*?)^```", _bodies()[section], flags=re.M | re.S)


def sections() -> list[str]:
    """The headings that hold runnable (bash/python) blocks, in page order: walking them all
    walks the page end to end (the install block is ``sh``: the caller installs)."""
    return [name for name in _bodies() if blocks(name)]


def run(section: str, cwd: Path, python: str, env: dict[str, str], timeout: float = 1800) -> str:
    """Run the section's blocks; returns their joined stdout (AssertionError on a failure)."""
    out = []
    for lang, code in blocks(section):
        cmd = ["bash", "-euo", "pipefail", "-c", code] if lang == "bash" else [python, "-c", code]
        proc = subprocess.run(cmd, cwd=cwd, env={**os.environ, **env}, capture_output=True,
                              text=True, timeout=timeout)
        assert proc.returncode == 0, f"{section} {lang} block failed:\n{code}\n{proc.stderr[-4000:]}"
        out.append(proc.stdout)
    return "".join(out)
