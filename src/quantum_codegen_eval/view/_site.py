"""Writing the site: ``index.html``, the assets (package data) and the data as script files.

Pages opened from disk cannot ``fetch()`` local files in Chromium, so the data are scripts:
``data/summary.js`` assigns the summary, ``data/p<i>.js`` hands problem ``i``'s samples to
``QCE.chunk`` when the page asks for it. Every string in them is JSON with ``<``, ``>``, ``&``
and the line separators escaped, so no completion can end the script or start markup.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from ..compare import DEFAULT_N_BOOT
from ..report import strict_json
from ._data import ViewError, load_view_runs, problems_and_chunks, site_data

ASSETS = ("view.css", "highlight.js", "view.js")
_JS_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
               "\u2029": "\\u2029"}


def js_data(value: Any) -> str:
    """``value`` as a JavaScript expression safe anywhere in a script: strict JSON (NaN as
    null) with nothing that can close a ``<script>`` element or break a line."""
    text = strict_json(value, ensure_ascii=True, separators=(",", ":"))
    for ch, esc in _JS_ESCAPES.items():
        text = text.replace(ch, esc)
    return text


def _page(title: str) -> str:
    scripts = "\n".join(f'<script src="assets/{name}"></script>' for name in ASSETS if name.endswith(".js"))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; style-src 'self'; img-src 'none'">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="assets/view.css">
</head>
<body>
<header id="top"><span class="brand">qce view</span><nav id="tabs"></nav><span id="runs-line"></span></header>
<main id="main"><p id="loading">Loading…</p>
<noscript>This viewer needs JavaScript (it runs from disk and loads nothing from the network).</noscript></main>
<script src="data/summary.js"></script>
{scripts}
</body>
</html>
"""


def build_site(runs: Sequence[str | Path] | Mapping[str, str | Path], out: str | Path, *,
               n_boot: int = DEFAULT_N_BOOT, seed: int = 0) -> Path:
    """Write the site of ``runs`` (report folders; a mapping gives labels) into ``out``;
    returns the path of ``index.html``. Raises :class:`ViewError` for runs it cannot show."""
    loaded = load_view_runs(runs)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ViewError(f"{out}: exists and is not a folder")
    data = site_data(loaded, n_boot=n_boot, seed=seed)
    table, chunks = problems_and_chunks(loaded)
    data["problems"] = table
    (out / "assets").mkdir(parents=True, exist_ok=True)
    folder = out / "data"
    folder.mkdir(exist_ok=True)
    for old in folder.glob("p*.js"):  # chunks of an earlier, larger site must not linger
        if old.stem[1:].isdigit():
            old.unlink()
    for i, chunk in enumerate(chunks):
        (folder / f"p{i}.js").write_text(f"QCE.chunk({i},{js_data(chunk)});\n", encoding="ascii")
    (folder / "summary.js").write_text(f"window.QCE_DATA={js_data(data)};\n", encoding="ascii")
    source = resources.files(__package__) / "assets"
    for name in ASSETS:
        (out / "assets" / name).write_text(source.joinpath(name).read_text(encoding="utf-8"),
                                           encoding="utf-8")
    bench = sorted({r.run.benchmark for r in loaded})
    title = f"qce view: {', '.join(bench)} ({', '.join(r.label for r in loaded)})"
    index = out / "index.html"
    index.write_text(_page(title), encoding="utf-8")
    return index
