"""The QCoder judge (package): one room per job, imported one way only.

``static`` (the UME rule) and ``harness`` (the program's job's source text) know nothing of
the specs; ``simulate`` and ``compare`` are the trusted maths; ``specs`` (one module per contest)
import those two; ``oracles`` and ``check`` (the trusted check, linked to the program's job)
import specs at run time; ``judge`` plans the session and reads its bounded results.
"""

from .compare import TOL, compare_vectors
from .judge import CaseResult, QCoderJudge
from .static import library_names, static_imports

__all__ = ["TOL", "CaseResult", "QCoderJudge", "compare_vectors",
           "library_names", "static_imports"]
