"""Several runs of one benchmark side by side: pass@k per group with bootstrap intervals, code
similarity, error distribution, statuses (with QCoder's human submissions), paired tests.

>>> from quantum_codegen_eval.compare import compare  # doctest: +SKIP
>>> compare({"A": "runs/a", "B": "runs/b"}, out="comparison/")  # doctest: +SKIP

Comparison reads reports: nothing here imports a judge or the sandbox. See docs/compare.md.
"""

from ._compare import DEFAULT_N_BOOT, Comparison, NotComparable, PairResult, compare, differences
from ._human import HumanRow, human_rates
from ._runs import ProblemCounts, Run, RunError, load_run
from ._tables import Interval, Table, latex_escape

__all__ = ["Comparison", "DEFAULT_N_BOOT", "HumanRow", "Interval", "NotComparable", "PairResult",
           "ProblemCounts", "Run", "RunError", "Table", "compare", "differences", "human_rates",
           "latex_escape", "load_run"]
