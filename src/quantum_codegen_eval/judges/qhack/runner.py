"""The two sandbox jobs of the QHack judge, as scripts made from the job modules of
:mod:`.jobs` (``judges/_embed.job_source``).

* :func:`program_source`: the untrusted job (:mod:`.jobs.program`). It loads the program parts
  (harness and solution) from :data:`JOB_FILE`, runs one public test (``run(input)``, or 2022's
  driver with the input as stdin) and writes the raw output as tagged JSON (:mod:`.payload`) to
  :data:`RESULT_FILE`. For a ``live`` challenge it also runs the official ``check()`` there, with
  the program's own output in place of the expected one; for a ``circuit`` challenge it emits the
  solution's circuit as its output instead (:mod:`.circuits`), or records the calls of the
  solution's functions next to its output (:mod:`.record`). It never sees an expected output.
* :func:`trusted_source`: the trusted job (:mod:`.jobs.trusted`; ``Job.trusted``, same era
  interpreter). Its arguments are the harness text the judge chose (the template's imports and
  ``check()``, never the completion's code) and which check decides; it reads the expected
  values from :data:`CHECK_FILE` and the program's result files (``result_name(i)``), and writes
  one outcome per test to :data:`CHECKED_FILE`.
"""

from __future__ import annotations

import functools
from typing import Any

from .. import _embed
from .jobs import program, trusted
from .jobs.program import JOB_FILE, RESULT_FILE
from .jobs.trusted import CHECK_FILE, CHECKED_FILE, result_name

__all__ = ["CHECKED_FILE", "CHECK_FILE", "JOB_FILE", "RESULT_FILE", "program_prelude",
           "program_source", "result_name", "trusted_prelude", "trusted_source"]


@functools.cache
def program_source() -> str:
    """The untrusted job's script (the program parts and the test come in :data:`JOB_FILE`)."""
    return _embed.job_source(program, "main")


def program_prelude() -> str:
    """``Job.prelude`` of the untrusted job: its modules, installed once by the worker."""
    return _embed.prelude(program)


def trusted_prelude() -> str:
    """``Job.prelude`` of the trusted job."""
    return _embed.prelude(trusted)


def trusted_source(harness: list[tuple[str, bool]], check: dict[str, Any], *,
                   shims: bool = False) -> str:
    """The trusted job's script: ``harness`` (judge-chosen text only, as ``(source, guarded)``
    parts) and ``check`` (data: which check decides, see :mod:`.jobs.trusted`); ``shims``:
    ``env="current"``'s harness helpers."""
    return _embed.job_source(trusted, "main", harness, check, shims)
