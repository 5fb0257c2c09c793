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
import re
from dataclasses import asdict, dataclass, field
from typing import Any

#: Verdict statuses, from the judges of the source papers (the QCoder service's final ones: AC,
#: WA, RE, TLE, MLE, DLE, UGE, QLE "qubits limit exceeded", UME; see docs/benchmarks/qcoder.md).
STATUSES = ("AC", "WA", "RE", "TLE", "MLE", "DLE", "UGE", "UME", "FORMAT", "QLE")

#: Error classes of a failed solution, as in the PennySynth error analysis ("timeout" covers
#: every resource limit: time and memory).
ERROR_CLASSES = ("formatting", "hallucination", "api_misuse", "reasoning", "timeout")

#: what a failed sample is counted under in an error distribution: its error class, or a bucket
#: of its own for a judge limitation, another judge error, a failure without a class
ERROR_BUCKETS = (*ERROR_CLASSES, "judge_limitation", "judge_error", "unclassified")


def error_bucket(error_class: str | None, judge_error: bool, judge_limitation: str) -> str:
    """The :data:`ERROR_BUCKETS` entry of a failed sample (a verdict's or a report row's
    ``error_class``, ``judge_error`` and ``judge_limitation``)."""
    if judge_limitation:
        return "judge_limitation"
    if judge_error:
        return "judge_error"
    return error_class or "unclassified"

#: status -> error class, for every status whose class does not depend on the exception
STATUS_CLASSES: dict[str, str | None] = {
    "AC": None, "WA": "reasoning", "DLE": "reasoning", "QLE": "reasoning", "UGE": "api_misuse",
    "UME": "api_misuse", "TLE": "timeout", "MLE": "timeout", "FORMAT": "formatting"}
#: exception types (last dotted part) of a runtime error -> error class; any other exception
#: (a program's own ``raise RuntimeError``, ``IndexError``, ``ZeroDivisionError`` ...) is
#: ``reasoning``
EXCEPTION_CLASSES: dict[str, str] = {
    **dict.fromkeys(("SyntaxError", "IndentationError", "TabError"), "formatting"),
    **dict.fromkeys(("ImportError", "ModuleNotFoundError", "AttributeError", "NameError"),
                    "hallucination"),
    **dict.fromkeys(("TypeError", "QiskitError", "CircuitError", "TranspilerError",
                     "DeviceError", "QuantumFunctionError", "WireError",
                     "DecompositionUndefinedError"), "api_misuse"),
}


def classify_error(status: str, exception_type: str | None = None, *,
                   hallucinated: bool = False, raised_in_framework: bool = False,
                   broke_contract: bool = False) -> str | None:
    """The error class of a verdict: the one mapping every judge and the report use.

    The class follows the status (``STATUS_CLASSES``), except for ``RE``, where it follows the
    exception raised (``EXCEPTION_CLASSES``; another exception, or none, is ``reasoning``).
    ``hallucinated``: the judge found names in the code that the framework does not have (an
    ``RE`` is then ``hallucination`` whatever was raised). ``raised_in_framework``: the
    traceback shows the exception raised inside the quantum framework (or on one of its
    objects), called from the completion's code; ``broke_contract``: the program broke the
    judge's calling contract (did not load as the harness expects, exited or ended the harness's
    process, returned what cannot be passed back). With either, an ``RE`` that is not
    ``formatting`` or ``hallucination`` is ``api_misuse``.

    >>> classify_error("RE", "builtins.RuntimeError"), classify_error("RE", "SyntaxError")
    ('reasoning', 'formatting')
    >>> classify_error("MLE"), classify_error("AC"), classify_error("RE", "KeyError", hallucinated=True)
    ('timeout', None, 'hallucination')
    """
    if status not in STATUSES:
        raise ValueError(f"unknown verdict status {status!r}; expected one of {STATUSES}")
    if status != "RE":
        return STATUS_CLASSES[status]
    if hallucinated:
        return "hallucination"
    klass = EXCEPTION_CLASSES.get((exception_type or "").rsplit(".", 1)[-1], "reasoning")
    misuse = raised_in_framework or broke_contract
    return "api_misuse" if misuse and klass == "reasoning" else klass


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
    def judge_error(self) -> bool:
        """The judge failed (not the completion's fault); see ``judges.base.judge_error``."""
        return bool(self.details.get("judge_error"))

    @property
    def judge_limitation(self) -> str:
        """The reason kind when the judge deliberately cannot judge this sample (a judge error
        made by ``judges.base.judge_limitation``), else ``""``. Results stored before 2026-12
        named it ``details["judge_limit"]`` (``rounds`` is now ``proxy_rounds``): read too."""
        if not self.judge_error:
            return ""
        reason = self.details.get("judge_limitation") or self.details.get("judge_limit") or ""
        return _OLD_LIMITS.get(str(reason), str(reason))

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


_LEADING_EXCEPTION = re.compile(r"([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)):")


def exception_in(text: str | None) -> str | None:
    """The exception type a traceback (or an ``"XError: ..."`` message) ends with, for a judge's
    ``details["exception_type"]``; ``None`` when the text names none.

    >>> exception_in('Traceback (most recent call last):\\n  File "x.py"\\nNameError: x')
    'NameError'
    >>> exception_in("the code does not define a function solve()") is None
    True
    """
    for line in reversed((text or "").strip().splitlines()[-20:]):
        named = _LEADING_EXCEPTION.match(line.strip())
        if named:
            return named.group(1)
    return None


#: the reason kinds of a judge limitation (``judges.base.judge_limitation``): what each means,
#: in one line (the report's "Judge limitations" section shows these)
JUDGE_LIMITATIONS = {
    "oracle_rounds": "the program asked the hidden oracle more often than the judge answers "
                     "(QHack: each query is a round of its own; the judge runs a bounded number)",
    "code_size": "the answer's code is longer than the judge reads; it was not run",
    "proxy_rounds": "the task's test needs more rounds of calls to the program than the judge runs",
    "round_budget": "the sample's jobs used the judge's CPU budget for rounds of calls before "
                    "the test finished",
    "transport": "a value passed between the task's test and the program is one the judge's "
                 "transport cannot carry",
    "simulation": "the program's circuit is past what the judge's trusted check reads or "
                  "simulates (QCoder: its size as written, qubits, gates after expansion, "
                  "nesting, branching resets)",
    "oracle_in_process": "the contest's own protocol, which builds the hidden oracle in the "
                         "program's process, accepts the program; the judge, whose program never "
                         "holds the oracle, does not (QHack 2022's hidden-oracle scripts)",
}

#: ``details["judge_limit"]`` kinds of results stored before the judge limitation outcome
_OLD_LIMITS = {"rounds": "proxy_rounds"}


#: the keys of ``Verdict.details`` a judge reports its evidence in (see :func:`with_error_class`)
EVIDENCE = ("exception_type", "hallucinated", "raised_in_framework", "broke_contract")


def with_error_class(verdict: Verdict) -> Verdict:
    """``verdict`` with its class set by :func:`classify_error`: the one path by which a verdict
    gets its class. ``judges.base.judge_many`` (so ``judge_one``, ``qce judge`` and ``refine``)
    and ``evaluate`` apply it to every verdict; a judge never sets the class itself, it reports
    evidence in ``details`` (``EVIDENCE``), so the same verdict has the same class everywhere.

    A judge error has no class (``None``: it is not the completion's fault; the report counts
    it as ``judge_error``, never as a pass). For ``RE`` the evidence decides:
    ``details["exception_type"]``, ``["hallucinated"]`` (the names, or true),
    ``["raised_in_framework"]``, ``["broke_contract"]``; without an exception type, an
    exception name that starts the message (``"RuntimeError: ..."``); with none of these,
    ``reasoning``. A class the judge put on the verdict is ignored.
    """
    from dataclasses import replace

    d = verdict.details
    named = _LEADING_EXCEPTION.match(verdict.message or "")
    if verdict.judge_error or verdict.status == "AC":
        klass = None
    elif verdict.status != "RE":
        klass = classify_error(verdict.status)
    else:
        klass = classify_error("RE", d.get("exception_type") or (named and named.group(1)),
                               hallucinated=bool(d.get("hallucinated")),
                               raised_in_framework=bool(d.get("raised_in_framework")),
                               broke_contract=bool(d.get("broke_contract")))
    return verdict if klass == verdict.error_class else replace(verdict, error_class=klass)


def _jsonable(obj: Any) -> Any:
    """Fallback for numpy scalars/arrays and other values a judge may put in ``expected``/``got``."""
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if isinstance(obj, complex):
        return [obj.real, obj.imag]
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    return repr(obj)
