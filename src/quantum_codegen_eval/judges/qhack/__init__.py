"""The QHack judge: :mod:`.judge` (the protocol), :mod:`.program` (solution parts, program),
:mod:`.runner` (the sandbox jobs' scripts, made from the job modules of :mod:`.jobs`),
:mod:`.payload` (tagged JSON of outputs), :mod:`.checks` (check trust, output validation,
trusted comparisons), :mod:`.circuits` and :mod:`.record` (circuit checks), :mod:`.shims`
(``current`` mode).
See docs/benchmarks/qhack.md."""

from .checks import check_trust, compare_script, validate
from .judge import QHackJudge, harness_incompatibility
from .program import FormatProblem, Prepared, prepare, program_parts, unfilled_solution
from .runner import RESULT_FILE

__all__ = ["RESULT_FILE", "FormatProblem", "Prepared", "QHackJudge", "check_trust",
           "compare_script", "harness_incompatibility", "prepare", "program_parts",
           "unfilled_solution", "validate"]
