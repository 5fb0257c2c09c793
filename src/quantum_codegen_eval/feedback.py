"""Verdict -> refinement prompt (the QCoder paper's feedback setting).

``feedback_prompt`` works for any benchmark's :class:`~quantum_codegen_eval.verdict.Verdict`;
``followup_prompt`` is the prompt of a later round. The loops that use them (``refine``,
``refine_all``) are in :mod:`.refinement`.

>>> from quantum_codegen_eval.verdict import Verdict
>>> v = Verdict("qcoder", "QPC002_A5", "DLE", details={"depth": 9, "depth_limit": 6})
>>> print(feedback_prompt(v).splitlines()[0])
Your circuit exceeded the depth limit (DLE): its depth is 9, but the limit is 6.
"""

from __future__ import annotations

from collections.abc import Sequence

from .benchmarks.base import FeedbackWording, UnknownBenchmark, get
from .verdict import Verdict

_FIX = "Fix the problem and output the complete corrected code in a ```python block."


def _where(v: Verdict) -> str:
    case = v.details.get("first_failing")
    if case:
        return f" on the test with {case}"
    failed = [t for t in v.tests if not t.passed]
    return f" on test {failed[0].name}" if failed else ""


def _failed_tests(v: Verdict, limit: int = 3) -> str:
    lines = [f"- {t.name}: {t.message}".rstrip(": ") for t in v.tests if not t.passed][:limit]
    return ("\nFailing tests:\n" + "\n".join(lines)) if lines else ""


def _wording(benchmark: str) -> FeedbackWording:
    try:
        return get(benchmark).feedback
    except UnknownBenchmark:
        return FeedbackWording()


def feedback_prompt(verdict: Verdict, wording: FeedbackWording | None = None) -> str:
    """The natural-language message for a failed verdict ('' for AC), worded as the verdict's
    benchmark declares (``wording`` overrides)."""
    v, d = verdict, verdict.details
    wording = wording or _wording(v.benchmark)
    s = v.status
    if s == "AC":
        return ""
    if s == "WA":
        fid = d.get("fidelity")
        extra = f" The fidelity with the expected result is {fid:.4f}." if isinstance(fid, float) else ""
        text = (f"Your code produced a wrong answer (WA){_where(v)}: {v.message or 'the output differs'}."
                f"{extra} Passed {v.tests_passed} of {v.tests_total} tests.")
        if wording.list_failed_tests:
            text += _failed_tests(v)
        text += " Re-check the state transitions gate by gate."
    elif s == "DLE":
        if d.get("queries") is not None:
            text = (f"Your circuit applies the given gate too many times (DLE){_where(v)}: "
                    f"{v.message}. Use fewer applications.")
        else:
            text = (f"Your circuit exceeded the depth limit (DLE): its depth is {d.get('depth')}, but "
                    f"the limit is {d.get('depth_limit')}.\nDepth counts every gate as one layer, "
                    "multi-controlled gates included; parallelise gates on disjoint qubits.")
    elif s == "QLE":
        text = (f"Your circuit uses more qubits than the problem allows (QLE){_where(v)}: "
                f"{v.message}. Use exactly the qubits the problem specifies.")
    elif s == "UME":
        mods = d.get("imports") or [v.message]
        text = (f"Your code uses modules that are not permitted (UME): {', '.join(mods)}. "
                "Use only the permitted modules listed in the rules.")
    elif s == "UGE":
        gate = d.get("violating_gate")
        text = (f"Your circuit uses a gate or instruction that is not allowed here (UGE)"
                f"{f': {gate}' if gate else ''}. {v.message}. Build it from permitted gates only "
                "(no measurement, reset, initialize or unitary blocks, and no banned gate).")
    elif s == "RE":
        text = ("Your code raised an error (RE) when it was run:\n" + (v.message or "(no message)")
                .strip()[-2000:] + "\n" + wording.run_hint)
    elif s in ("TLE", "MLE"):
        what = "time" if s == "TLE" else "memory"
        text = (f"Your code exceeded the {what} limit ({s}){_where(v)}. {v.message} "
                "Use a more efficient construction.").replace("  ", " ")
    elif s == "FORMAT":
        text = ("Your answer could not be read as code (FORMAT): "
                f"{v.message or 'no code block found'}. Enclose the final code exactly between "
                "```python and ```.")
    else:  # pragma: no cover - STATUSES is closed
        text = f"Your answer was judged {s}: {v.message}"
    return text.strip() + "\n" + _FIX


def followup_prompt(base: str, attempts: Sequence[tuple[str, Verdict]],
                    wording: FeedbackWording | None = None) -> str:
    """The prompt of the next refinement round: the benchmark's prompt ``base``, then every
    earlier ``(answer, verdict)`` of the chain with the judge's feedback, as in the QCoder
    paper's refinement loop."""
    history = "".join(
        f"\n\n### Your answer (attempt {j + 1})\n{completion.strip()}\n\n"
        f"### Judge feedback (attempt {j + 1})\n{feedback_prompt(verdict, wording)}"
        for j, (completion, verdict) in enumerate(attempts))
    return base + history + "\n\nNow give the corrected solution."
