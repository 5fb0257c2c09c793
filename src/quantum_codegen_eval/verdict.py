"""The one result type every judge returns.

A :class:`Verdict` is plain data: it round-trips through JSON (``Verdict.from_dict(v.to_dict())``)
so that the result store, the report and ``qce judge --json`` all speak the same shape.

>>> v = Verdict(benchmark="qcoder", problem_id="QPC001_A1", status="WA", tests_passed=3, tests_total=4)
>>> v.partial_credit
0.75
>>> Verdict.from_dict(v.to_dict()) == v
True
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

#: Verdict statuses, from the judges of the source papers (QCoder: RE, UME, UGE, DLE, WA, AC).
STATUSES = ("AC", "WA", "RE", "TLE", "MLE", "DLE", "UGE", "UME", "FORMAT")

#: Error classes of a failed solution, as in the PennySynth error analysis.
ERROR_CLASSES = ("formatting", "hallucination", "api_misuse", "reasoning", "timeout")


@dataclass
class TestResult:
    """The outcome of one test (one public test case, one parameter value, one assertion)."""

    name: str
    passed: bool
    status: str = ""
    expected: Any = None
    got: Any = None
    message: str = ""
    seconds: float | None = None

    __test__ = False  # not a pytest class


@dataclass
class Verdict:
    """A judge's decision on one completion of one problem."""

    benchmark: str
    problem_id: str
    status: str
    tests_passed: int = 0
    tests_total: int = 0
    tests: list[TestResult] = field(default_factory=list)
    error_class: str | None = None
    message: str = ""
    timings: dict[str, float] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown verdict status {self.status!r}; expected one of {STATUSES}")
        if self.error_class is not None and self.error_class not in ERROR_CLASSES:
            raise ValueError(
                f"unknown error class {self.error_class!r}; expected one of {ERROR_CLASSES}"
            )

    @property
    def passed(self) -> bool:
        return self.status == "AC"

    @property
    def partial_credit(self) -> float:
        """Fraction of tests passed (1.0 for AC, 0.0 when no test ran)."""
        if self.status == "AC":
            return 1.0
        return self.tests_passed / self.tests_total if self.tests_total else 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), default=_jsonable, **kwargs)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        data = dict(data)
        data["tests"] = [TestResult(**t) for t in data.get("tests", [])]
        return cls(**data)


def _jsonable(obj: Any) -> Any:
    """Fallback for numpy scalars/arrays and other values a judge may put in ``expected``/``got``."""
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if isinstance(obj, complex):
        return [obj.real, obj.imag]
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    return repr(obj)
