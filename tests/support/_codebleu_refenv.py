"""The published CodeBLEU (PyPI ``codebleu==0.7.0``) in a virtual environment of its own.

Test/bench support (tests/support/, not part of the package): used by the parity test and
``timing/metrics.py`` only; the metric itself never needs it.
``codebleu`` 0.7.0 pins ``tree-sitter<0.23``, so it is installed with ``--no-deps`` beside the
tree-sitter and tree-sitter-python versions of the running interpreter (same parser, so the
comparison isolates the metric code). The folder is ``cache_dir("codebleu-ref")`` (the package's
one cache root, see ``quantum_codegen_eval.cache``); it is created once and reused.

>>> ref_venv_dir().name
'codebleu-ref'
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

from quantum_codegen_eval.cache import cache_dir
from quantum_codegen_eval.metrics.signature import package_version

REF_VERSION = "0.7.0"

# Runs inside the reference venv: reads {"refs", "preds", "per_sample"} on stdin, prints JSON.
_RUNNER = r"""
import json, sys, time, warnings, logging
logging.disable(logging.WARNING)
from codebleu import calc_codebleu
job = json.load(sys.stdin)
refs, preds = job["refs"], job["preds"]
t0, c0 = time.perf_counter(), time.process_time()
corpus = calc_codebleu(refs, preds, lang="python")
elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
per = []
if job.get("per_sample"):
    per = [calc_codebleu([r], [p], lang="python") for r, p in zip(refs, preds)]
json.dump({"corpus": corpus, "per_sample": per, "seconds": elapsed, "cpu_seconds": cpu}, sys.stdout)
"""


def ref_venv_dir() -> Path:
    """Where the reference venv lives (not created by this call)."""
    return cache_dir("codebleu-ref")


def _python(folder: Path) -> Path:
    return folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_ref_venv() -> Path:
    """Create (once) the reference venv and return its interpreter.

    The marker file records the pinned versions; a venv built for other tree-sitter versions
    is rebuilt.
    """
    folder = ref_venv_dir()
    pins = [
        f"codebleu=={REF_VERSION}",
        f"tree-sitter=={package_version('tree-sitter')}",
        f"tree-sitter-python=={package_version('tree-sitter-python')}",
    ]
    marker = folder / "qce-pins.txt"
    python = _python(folder)
    if marker.is_file() and marker.read_text() == "\n".join(pins) and python.exists():
        return python
    folder.parent.mkdir(parents=True, exist_ok=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(folder)
    cmd = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps"]
    subprocess.run([*cmd, *pins], check=True)
    marker.write_text("\n".join(pins))
    return python


def run_reference(
    references: list[str] | list[list[str]],
    predictions: list[str],
    *,
    per_sample: bool = True,
    hash_seed: int = 0,
) -> dict:
    """Score all pairs with the reference package in ONE subprocess.

    Returns ``{"corpus": {...}, "per_sample": [...], "seconds": ..., "cpu_seconds": ...}``: wall
    and process CPU time of the corpus call alone. ``hash_seed`` fixes ``PYTHONHASHSEED``: the reference's
    dataflow match iterates Python sets of strings, so it depends on the hash seed.
    """
    python = ensure_ref_venv()
    env = {**os.environ, "PYTHONHASHSEED": str(hash_seed), "PYTHONWARNINGS": "ignore"}
    env.pop("PYTHONPATH", None)
    job = json.dumps({"refs": references, "preds": predictions, "per_sample": per_sample})
    done = subprocess.run(
        [str(python), "-c", _RUNNER], input=job, capture_output=True, text=True, env=env
    )
    if done.returncode != 0:
        raise RuntimeError(f"reference codebleu failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout)


if __name__ == "__main__":  # pragma: no cover - manual helper
    print(ensure_ref_venv(), file=sys.stderr)
