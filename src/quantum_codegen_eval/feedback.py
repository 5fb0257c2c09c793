"""Verdict -> refinement prompt, and the refinement loop (the QCoder paper's feedback setting).

``feedback_prompt`` works for any benchmark's :class:`~quantum_codegen_eval.verdict.Verdict`;
``refine`` drives a user-supplied ``generate(prompt) -> str`` until the judge accepts or the
round budget is spent, keeping every round's prompt, answer and verdict.

>>> from quantum_codegen_eval.verdict import Verdict
>>> v = Verdict("qcoder", "QPC002_A5", "DLE", details={"depth": 9, "depth_limit": 6})
>>> print(feedback_prompt(v).splitlines()[0])
Your circuit exceeded the depth limit (DLE): its depth is 9, but the limit is 6.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .benchmarks.base import Benchmark, FeedbackWording, UnknownBenchmark, get
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


@dataclass
class Round:
    """One refinement round."""

    prompt: str
    completion: str
    verdict: Verdict


@dataclass
class RefineResult:
    problem_id: str
    rounds: list[Round] = field(default_factory=list)

    @property
    def solved(self) -> bool:
        return bool(self.rounds) and self.rounds[-1].verdict.passed

    @property
    def first_ac_round(self) -> int | None:
        """0-based index of the accepted round (None when never accepted)."""
        return next((i for i, r in enumerate(self.rounds) if r.verdict.passed), None)

    def to_dict(self) -> dict[str, Any]:
        return {"problem_id": self.problem_id, "solved": self.solved,
                "first_ac_round": self.first_ac_round,
                "rounds": [{"prompt": r.prompt, "completion": r.completion,
                            "verdict": r.verdict.to_dict()} for r in self.rounds]}


def _benchmark_of(problem: Any, judge: Any) -> Benchmark:
    from .benchmarks.base import registry

    if judge is not None and getattr(judge, "benchmark", None):
        return get(judge.benchmark)
    found = [b for b in registry().values() if isinstance(problem, b.record_type)]
    own = [b for b in found if b.module == type(problem).__module__]  # the record's home
    if own or len(found) == 1:
        return (own or found)[0]
    raise ValueError(f"cannot tell the benchmark of problem {problem!r}; pass judge=")


def refine(generate: Callable[[str], str], problem: Any, *, judge: Any = None,
           max_rounds: int = 5, sandbox: Any = None) -> RefineResult:
    """Generate, judge, feed back; stop at AC or after ``max_rounds`` rounds.

    The first prompt is the benchmark's ``prompt(problem)``; each later prompt repeats it with
    the previous answers and the judge's feedback, as in the QCoder paper's refinement loop.
    """
    from .judges.base import judge_one

    if max_rounds < 1:
        raise ValueError("max_rounds must be at least 1")
    bench = _benchmark_of(problem, judge)
    judge = judge if judge is not None else bench.make_judge()
    wording = bench.feedback
    base = bench.prompt(problem)
    result = RefineResult(getattr(problem, "id", getattr(problem, "task_id", str(problem))))
    own = sandbox is None
    if own:
        from .execution import Sandbox

        sandbox = Sandbox()
    try:
        prompt = base
        for i in range(max_rounds):
            completion = generate(prompt)
            if not isinstance(completion, str):
                raise TypeError(f"generate() returned {type(completion).__name__}, not str (round {i})")
            verdict = judge_one(judge, problem, completion, sandbox)
            result.rounds.append(Round(prompt, completion, verdict))
            if verdict.passed:
                break
            history = "".join(
                f"\n\n### Your answer (attempt {j + 1})\n{r.completion.strip()}\n\n"
                f"### Judge feedback (attempt {j + 1})\n{feedback_prompt(r.verdict, wording)}"
                for j, r in enumerate(result.rounds))
            prompt = base + history + "\n\nNow give the corrected solution."
    finally:
        if own:
            sandbox.close()
    return result
