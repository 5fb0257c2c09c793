"""``qce view``: one run, or several side by side, as a static site opened from disk.

>>> from quantum_codegen_eval.view import build_site  # doctest: +SKIP
>>> build_site(["runs/a", "runs/b"], out="site/")  # doctest: +SKIP

The viewer reads reports (report.json folders) and uses :func:`~quantum_codegen_eval.compare.compare`
for the paired comparison; nothing here imports a judge, the sandbox or a benchmark. Every string
that came from a completion is data: the page builds its DOM with ``textContent``. See
docs/view.md.
"""

from ._data import ViewError, ViewRun, load_view_runs
from ._site import build_site, js_data

__all__ = ["ViewError", "ViewRun", "build_site", "js_data", "load_view_runs"]
