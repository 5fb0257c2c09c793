"""Peak memory of a piece of work, measured where nothing else can mask or inflate it.

:func:`run_fresh` runs ``work(*args)`` in a fresh interpreter (``exec``'d, never forked) and
reads that process's ``VmHWM`` from /proc, reset to the current RSS when the work starts. Not
``ru_maxrss``: it is a high-water mark of the whole process, so once a test process has been
large (another test, a fixture) a later delta reads 0; and a process started from a large one
inherits it, as Linux keeps the forking parent's RSS as the child's ``ru_maxrss`` across
``exec`` (from CI's 716 MB pytest every case read 716 MB).

``work`` is a module-level function of a file (a test module, a timing script) that the fresh
interpreter loads by path (with this folder and the file's own on ``sys.path``); ``args`` and
its result are JSON. By default the window opens just before ``work`` is called; ``work`` may
open it later itself with :func:`start_window`, after a setup it does not mean to measure.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
_start_mb: float | None = None


@dataclass(frozen=True)
class Peak:
    """``result``: what ``work`` returned; ``peak_mb``: the process's peak RSS (``VmHWM``) from
    the window's start to the work's end; ``start_mb``: its RSS when the window opened."""

    result: Any
    peak_mb: float
    start_mb: float

    @property
    def growth_mb(self) -> float:
        """How far the work took the process above its RSS when the window opened."""
        return round(self.peak_mb - self.start_mb, 1)


def status_mb(field: str, pid: int | str = "self") -> float:
    """A memory field of /proc/<pid>/status (``VmHWM``, ``VmRSS``, ...) in MB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def start_window() -> None:
    """In the measured process: reset its ``VmHWM`` to its current RSS (Linux >= 4.0)."""
    global _start_mb
    with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
        fh.write("5")
    _start_mb = status_mb("VmRSS")


def run_fresh(work, *args: Any, timeout: float = 600) -> Peak:
    """``work(*args)`` in a fresh interpreter; its result and the process's peak RSS."""
    file = Path(inspect.getsourcefile(work)).resolve()
    name = work.__module__ if work.__module__ != "__main__" else file.stem
    with tempfile.TemporaryDirectory(prefix="peak_rss") as tmp:
        out_file = Path(tmp) / "out.json"
        spec = {"file": str(file), "module": name, "qualname": work.__qualname__,
                "args": list(args), "out": str(out_file)}
        proc = subprocess.run(
            [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(_HERE)!r}); "
             "import peak_rss; peak_rss._child()"],
            input=json.dumps(spec), capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            raise RuntimeError(f"{work.__qualname__}{tuple(args)!r:.200}: exit {proc.returncode}"
                               f"\n{proc.stderr[-3000:]}")
        out = json.loads(out_file.read_text())
    return Peak(out["result"], out["peak_mb"], out["start_mb"])


def _child() -> None:
    import importlib.util

    spec = json.loads(sys.stdin.read())
    file = Path(spec["file"])
    sys.path.insert(0, str(file.parent))
    mod_spec = importlib.util.spec_from_file_location(spec["module"], file)
    module = importlib.util.module_from_spec(mod_spec)
    sys.modules[spec["module"]] = module  # dataclasses and pickling look their module up
    mod_spec.loader.exec_module(module)
    work = module
    for part in spec["qualname"].split("."):
        work = getattr(work, part)
    start_window()
    result = work(*spec["args"])
    peak = status_mb("VmHWM")
    Path(spec["out"]).write_text(json.dumps({"result": result, "peak_mb": round(peak, 1),
                                             "start_mb": round(_start_mb, 1)}))
