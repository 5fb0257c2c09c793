"""The two sandbox jobs of the QHack judge, made from the job modules of :mod:`.jobs`
(``judges/_embed.job``: the script and the worker's prelude of its modules).

* :func:`program_job`: the untrusted job (:mod:`.jobs.program`). It loads the program parts
  (harness and solution) from :data:`JOB_FILE`, runs one public test (``run(input)``, or 2022's
  driver with the input as stdin) and writes the raw output as tagged JSON (:mod:`.payload`) to
  :data:`RESULT_FILE`. For a ``live`` challenge it also runs the official ``check()`` there, with
  the program's own output in place of the expected one; for a ``circuit`` challenge it emits the
  solution's circuit as its output instead (:mod:`.circuits`), or records the calls of the
  solution's functions next to its output (:mod:`.record`). It never sees an expected output.
* :func:`trusted_job`: the trusted job (:mod:`.jobs.trusted`; ``Job.trusted``, same era
  interpreter). Its arguments are the harness text the judge chose (the template's imports and
  ``check()``, never the completion's code) and which check decides; it reads the expected
  values from :data:`CHECK_FILE` and the program's result files (``result_name(i)``), and writes
  one outcome per test to :data:`CHECKED_FILE`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import _embed
from .jobs import program, trusted
from .jobs.program import JOB_FILE, RESULT_FILE
from .jobs.trusted import CHECK_FILE, CHECKED_FILE, result_name

if TYPE_CHECKING:
    from ...execution.types import Job

__all__ = ["CHECKED_FILE", "CHECK_FILE", "JOB_FILE", "RESULT_FILE", "program_job", "result_name",
           "trusted_job"]


def program_job(**fields: Any) -> Job:
    """The untrusted job (the program parts and the test come in :data:`JOB_FILE`); ``fields``:
    the job's other fields."""
    return _embed.job(program, "main", **fields)


def trusted_job(harness: list[tuple[str, bool]], check: dict[str, Any], *, shims: bool = False,
                **fields: Any) -> Job:
    """The trusted job: ``harness`` (judge-chosen text only, as ``(source, guarded)`` parts) and
    ``check`` (data: which check decides, see :mod:`.jobs.trusted`); ``shims``: ``env="current"``'s
    harness helpers; ``fields``: the job's other fields."""
    return _embed.job(trusted, "main", harness, check, shims, **fields)
