"""The QCoder judge: RE -> UME -> UGE -> DLE -> WA/AC, in one session of two linked jobs.

* The program's job (untrusted): the harness (``jobs/harness.py``, shipped by ``judges._embed``)
  runs the candidate under the UME guard and sends each test's circuit (QPY, or the JSON tree)
  to the trusted check on the link; it writes a report and the UME channel. It gets the case
  arguments and the oracles' public descriptions only (no spec, no reference, no hidden value).
* The check (trusted, the program's job is its peer: ``check``): the judge's own code receives
  the circuits (bounded, counted), inlines, checks UGE/DLE, simulates with the hidden oracles and
  compares with the target. What the program sends never passes through the evaluator.

``decide`` in the evaluator only reads small, bounded JSON from both jobs.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from ...verdict import TestResult, Verdict
from .. import _embed
from ..base import (
    Evidence,
    job_hash_seed,
    judge_error,
    judge_limitation,
    limit_status,
    make_verdict,
    read_result,
    run_timings,
)
from . import check
from .jobs import harness
from .jobs.harness import TAMPER_EXIT
from .oracles import public_oracles
from .static import library_names, split_allowed, static_imports

#: verdict severity when several test cases fail differently
SEVERITY = ("RE", "UME", "UGE", "QLE", "DLE", "TLE", "MLE", "WA")
#: the QCoder service's statuses, in the order its own client declares them
#: (QCoder-Benchmark ``codes/generate_and_judge.py``); WJ (waiting for judging) is never final
SERVICE_STATUSES = ("WJ", "AC", "WA", "RE", "TLE", "MLE", "DLE", "UGE", "QLE", "UME")
STATUSES = frozenset(SEVERITY + ("AC",))
#: what the jobs preload (a zygote serving untrusted jobs: never the judge's own modules)
PRELOAD = ("numpy", "qiskit", "qiskit_aer")
MAX_REPORT_BYTES = 2 << 20
MAX_CHANNEL_BYTES = 256 << 10
#: the program's job writes its report and UME channel (the circuits go on the link)
MAX_FILE_MB = 16
#: the parent's work per program is bounded: past this the code is not parsed (a judge
#: limitation naming the limit; the completion itself is bounded by the stage driver,
#: ``judges.base.MAX_COMPLETION_CHARS``). A 20 MB program made the static check take 8 GB and
#: 107 s of the evaluator; 200 000 characters of code take at most ~200 MB and ~2 s (the
#: largest reference is under 4 000)
MAX_CODE_CHARS = 200_000
#: the check's disk: what it keeps of the outputs (``check.MAX_KEPT_BYTES``), with room
CHECK_FILE_MB = (check.MAX_CASE_BYTES >> 20) + 16


@dataclass
class CaseResult:
    status: str
    message: str = ""
    fidelity: float | None = None
    depth: int | None = None
    gate: str | None = None
    queries: int | None = None
    judge_error: bool = False
    #: the partial-credit fidelity of this test (``compare.fidelity``; None: not simulated, or
    #: a problem without one target)
    credit: float | None = None
    #: a limit of the judge's, established by the trusted check (``check.JUDGE_LIMIT``: the
    #: output's size as received, the circuit's size, nesting, ...): the sample's judge
    #: limitation ``simulation``
    simulation_limit: bool = False


@dataclass
class QCoderJudge:
    """Judge one completion of one QCoder problem (``judges.base.Judge`` protocol)."""

    benchmark: str = "qcoder"
    timeout: float = 60.0
    memory_mb: int = 4096
    seed: int = 0
    #: mixed into the draw of hidden values (marked items, hidden circuits): never sent to the
    #: program's job; random per judge unless given (give one to repeat a run exactly)
    secret: str = field(default_factory=lambda: secrets.token_hex(16), repr=False)
    #: stop checking at the first failing test (faster; tests_passed then counts up to it)
    first_failure: bool = False
    #: limits of the trusted check (reading, checking and simulating every circuit; its wall
    #: clock waits while the program runs)
    check_timeout: float = 300.0
    check_memory_mb: int = 4096
    options: dict[str, Any] = field(default_factory=dict)

    def signature(self) -> dict[str, Any]:
        """The options that can change a verdict (``judges.base.Judge.signature``); the secret
        is left out (it is never published)."""
        return {"timeout": self.timeout, "memory_mb": self.memory_mb, "seed": self.seed,
                "hash_seed": job_hash_seed(self.seed),
                "first_failure": self.first_failure, "check_timeout": self.check_timeout,
                "check_memory_mb": self.check_memory_mb,
                **{k: v for k, v in sorted(self.options.items())}}

    # ------------------------------------------------------------------ planning
    def spec(self, problem: Any) -> Any:
        from .specs import get_spec

        return get_spec(problem.id)

    def cases(self, problem: Any) -> list[dict[str, Any]]:
        return check.cases_for(self.spec(problem), problem.id, self.seed, self.secret)

    #: cases drawn from ``seed`` and this instance's ``secret``, circuits simulated exactly
    deterministic = True

    def reads(self, problem: Any, code: str | None) -> str:
        """What the verdict depends on: the code (the nonce is derived from it too)."""
        return code or ""

    def nonce(self, problem: Any, code: str | None) -> str:
        """The per-run oracle name suffix (a name, not a secret: see ``oracles``)."""
        code = self.reads(problem, code)
        h = hashlib.sha256(f"{self.seed}\0{problem.id}\0{code}".encode("utf-8", "surrogatepass"))
        return h.hexdigest()[:12]

    def jobs(self, problem: Any, code: str | None) -> list[Any] | Verdict:
        return self._with_fidelity(problem, self._jobs(problem, code or ""))

    def _jobs(self, problem: Any, code: str) -> list[Any] | Verdict:
        from ...execution import Limits

        spec = self.spec(problem)
        if len(code) > MAX_CODE_CHARS:
            return judge_limitation(self, problem.id, "code_size",
                                    f"judge limit: the code has {len(code):,} characters, over "
                                    f"the judge's {MAX_CODE_CHARS:,} (not parsed)")
        if not code.strip():
            return make_verdict(self, problem.id, "FORMAT", "the answer contains no code",
                                details={"report": _report()})
        try:
            bad = static_imports(code, list(problem.allowed_imports))
        except SyntaxError as exc:
            return make_verdict(self, problem.id, "RE",
                                f"SyntaxError: {exc.msg} (line {exc.lineno})",
                                details={"report": _report(runtime_error=True)},
                                evidence=Evidence(exception_type="SyntaxError"))
        except (ValueError, RecursionError, MemoryError) as exc:  # null bytes, absurd nesting
            return make_verdict(self, problem.id, "RE", f"the code cannot be parsed: {exc}",
                                details={"report": _report(runtime_error=True)},
                                evidence=Evidence(exception_type="SyntaxError"))
        if bad:
            return make_verdict(self, problem.id, "UME", "module(s) outside the permitted list: "
                                + ", ".join(bad), details={"report": _report(), "imports": bad})
        nonce = self.nonce(problem, code)
        cases = self.cases(problem)
        mods, names = split_allowed(list(problem.allowed_imports))
        cfg = {"args": list(spec.args), "classical": spec.mode == "classical",
               "allowed_modules": mods, "allowed_names": names, "library_names": library_names(),
               "max_case_bytes": check.MAX_CASE_BYTES,
               "banned_gates": list(problem.banned_gates),
               "cases": [{"args": {k: v for k, v in c["args"].items() if k in spec.args},
                          "oracles": public_oracles(spec, c, nonce)} for c in cases]}
        program = _embed.job(harness, "main", hash_seed=job_hash_seed(self.seed),
                             id=f"qcoder:{problem.id}:program",
                             files={harness.CANDIDATE: code, harness.CASES: json.dumps(cfg)},
                             collect=(harness.REPORT, harness.CHANNEL), preload=PRELOAD,
                             limits=Limits(wall_time=self.timeout, memory_mb=self.memory_mb,
                                           file_size_mb=MAX_FILE_MB))
        return [self.check_job(problem, code, program)]

    def check_job(self, problem: Any, code: str | None, program: Any) -> Any:
        """The trusted check, linked to the program's job ``program`` (its peer)."""
        from ...execution import Job, Limits

        cfg = {"problem": {"id": problem.id, "depth_limit": problem.depth_limit,
                           "query_limit": problem.query_limit,
                           "query_limit_gate": problem.query_limit_gate,
                           "banned_gates": list(problem.banned_gates)},
               "seed": self.seed, "secret": self.secret, "nonce": self.nonce(problem, code),
               "first_failure": self.first_failure,
               "max_case_bytes": check.MAX_CASE_BYTES, "max_kept_bytes": check.MAX_KEPT_BYTES}
        return Job(check.SOURCE, hash_seed=job_hash_seed(self.seed),
                   id=f"qcoder:{problem.id}:check",
                   files={check.CONFIG: json.dumps(cfg)}, collect=(check.OUTPUT,),
                   preload=PRELOAD, trusted=True, peer=program,
                   limits=Limits(wall_time=self.check_timeout, memory_mb=self.check_memory_mb,
                                 file_size_mb=CHECK_FILE_MB))

    # ------------------------------------------------------------------ deciding
    def decide(self, problem: Any, code: str | None, results: list[Any]) -> Verdict | list[Any]:
        return self._with_fidelity(problem, self._decide(problem, code, results))

    def _decide(self, problem: Any, code: str | None, results: list[Any]) -> Verdict | list[Any]:
        spec = self.spec(problem)
        cases = self.cases(problem)
        checker, r = results[0], results[0].peer  # the trusted check, the program's job
        if r is None:
            return judge_error(self, problem.id, "the sandbox ran no program job beside the "
                               f"check ({checker.status})")
        # the check's wall clock spans the session (it waits for the program); CPU: both sides
        run = {"wall_time": checker.wall_time or 0.0,
               "cpu_time": run_timings([checker, r])["cpu_time"]}
        channel = _channel(r.files.get(harness.CHANNEL), r.stderr or "")
        read = read_result(r, harness.REPORT, MAX_REPORT_BYTES)
        report = read.value
        if channel["violations"] or r.exit_code == TAMPER_EXIT:
            found = channel["violations"] or ["the program tampered with the judge's UME channel"]
            return make_verdict(self, problem.id, "UME", "module(s) or operations outside the "
                                "permitted list: " + ", ".join(found[:10]), timings=run,
                                details={"report": _report(), "imports": found[:50]})
        if not isinstance(report, dict):
            status = read.limit_status or "RE"
            msg = (r.exception.message if getattr(r, "exception", None) else r.stderr[-2000:])
            what = ("the program ended the process before the harness's end marker"
                    if r.status == "ok" and not channel["ended"]
                    else f"the program failed before any test ({r.status})")
            return make_verdict(self, problem.id, status, what + (f": {msg}" if msg else ""),
                                details={"report": _report(runtime_error=status == "RE")},
                                evidence=Evidence(broke_contract=status == "RE"), timings=run)
        if report.get("load_error"):
            if limit_status(r.status, memory_error=report.get("load_memory") is True):
                return make_verdict(self, problem.id, "MLE", "memory limit exceeded while "
                                    "loading: " + str(report["load_error"])[-3000:],
                                    details={"report": _report()}, timings=run)
            return make_verdict(self, problem.id, "RE", str(report["load_error"])[-3000:],
                                details={"report": _report(runtime_error=True)}, timings=run,
                                evidence=Evidence.from_error(str(report["load_error"])))
        entries: dict[int, dict] = {}
        listed = report.get("cases")  # the program may have patched the harness's json module
        for e in listed if isinstance(listed, list) else []:
            if isinstance(e, dict) and isinstance(e.get("i"), int) and 0 <= e["i"] < len(cases):
                entries.setdefault(e["i"], e)
        ended = channel["ended"] or limit_status(r.status) is not None
        checked, check_failure = _checked(checker)
        if check_failure and check_failure[0] == LINK_TAMPERED:
            # as for the UME channel: interfering never helps, whatever reached the check
            return make_verdict(self, problem.id, "RE", "the program wrote on the judge's link "
                                "to the check: " + check_failure[1], timings=run,
                                details={"report": _report(runtime_error=True)},
                                evidence=Evidence(broke_contract=True))
        results_by_case: list[tuple[dict, CaseResult]] = []
        tests = []
        for i, case in enumerate(cases):
            entry = entries.get(i)
            if entry is None:
                status = limit_status(r.status) or "RE"
                res = CaseResult(status, "not run (the program stopped earlier)"
                                 if status == "RE" else f"not run ({r.status})")
            elif entry.get("status") not in ("ok", "unsent"):
                res = CaseResult(limit_status("error", memory_error=entry.get("memory") is True)
                                 or "RE", str(entry.get("error"))[-3000:])
            elif not ended:
                res = CaseResult("RE", "the run ended without the harness's end marker (the "
                                 "program ended the process)")
            elif i in checked:
                res = checked[i]
            elif check_failure and check_failure[0] == i:
                res = CaseResult("RE", check_failure[1])
            elif check_failure and check_failure[0] == CHECK_FAILED:
                res = CaseResult("RE", f"judge error: {check_failure[1]}", judge_error=True)
            else:
                if self.first_failure and any(c.status != "AC" for _, c in results_by_case):
                    break
                # the harness sends every output before it reports the test: what the check did
                # not receive, the program kept from it (it wrote on the link, or closed it)
                res = CaseResult("RE", "the output of this test did not reach the judge's check"
                                 + (f" ({check_failure[1]})" if check_failure else ""))
            results_by_case.append((case, res))
            tests.append(TestResult(name=spec.case_name(case), passed=res.status == "AC",
                                    status=res.status, got=res.fidelity, message=res.message))
            if (res.status in ("RE", "TLE", "MLE") and not res.judge_error) or (
                    self.first_failure and res.status != "AC"):
                break
        verdict = self._compose(problem, spec, cases, results_by_case, tests, run)
        verdict.details.update(_mean_fidelity(spec, cases, checked, self.first_failure, verdict))
        return verdict

    def _compose(self, problem: Any, spec: Any, cases: list, outcomes: list, tests: list,
                 timings: dict[str, float]) -> Verdict:
        worst = "AC"
        for _, res in outcomes:  # the program's failures first: a judge limit decides nothing
            if res.status != "AC" and not res.judge_error and (
                    worst == "AC" or SEVERITY.index(res.status) < SEVERITY.index(worst)):
                worst = res.status
        if worst == "AC" and len(outcomes) < len(cases):
            worst = "TLE"
        failing = next(((c, res) for c, res in outcomes
                        if res.status == worst and not res.judge_error), None)
        if worst == "AC":  # every test the judge could decide passed
            failing = next(((c, res) for c, res in outcomes if res.judge_error), None)
        if failing and failing[1].simulation_limit:
            return judge_limitation(self, problem.id, "simulation", failing[1].message,
                                    tests=tests, tests_total=len(cases), timings=timings)
        if failing and failing[1].judge_error:
            return judge_error(self, problem.id, failing[1].message.removeprefix("judge error: "),
                               tests=tests, tests_total=len(cases), timings=timings)
        rep = _report(runtime_error=any(res.status == "RE" for _, res in outcomes),
                      gate_violation=any(res.status == "UGE" for _, res in outcomes),
                      depth_violation=any(res.status == "DLE" for _, res in outcomes),
                      state_match=worst == "AC")
        details: dict[str, Any] = {"report": rep}
        evidence = Evidence.from_error(failing[1].message) if worst == "RE" and failing else None
        if failing:
            c, res = failing
            details.update(first_failing=spec.case_name(c), fidelity=res.fidelity,
                           depth=res.depth, depth_limit=problem.depth_limit,
                           violating_gate=res.gate, queries=res.queries)
        msg = "" if worst == "AC" else (
            f"{spec.case_name(failing[0])}: {failing[1].message}" if failing
            else "the program did not finish all tests")
        return make_verdict(self, problem.id, worst, msg, tests=tests, tests_total=len(cases),
                            details=details, evidence=evidence, timings=timings)

    def _with_fidelity(self, problem: Any, out: Verdict | list[Any]) -> Verdict | list[Any]:
        """``out`` with the verdict's partial-credit fidelity where :func:`_mean_fidelity` did
        not give it: 0 for a program that failed before any test was simulated."""
        if not isinstance(out, Verdict) or "fidelity_source" in out.details:
            return out
        spec = self.spec(problem)
        if spec.mode == "classical" or spec.predicate is not None:
            mean, source = None, "no target"
        elif out.judge_error:
            mean, source = None, "judge error"
        else:
            mean, source = 0.0, "not simulated"
        out.details.update(mean_fidelity=mean, fidelity_source=source, fidelity_simulated=0)
        return out


def _mean_fidelity(spec: Any, cases: list, checked: dict[int, CaseResult], first_failure: bool,
                   verdict: Verdict) -> dict[str, Any]:
    """The verdict's partial credit (docs/metrics/fidelity.md): the mean over all tests of each
    test's fidelity, 1 for an accepted test, 0 for a test that was not simulated (the program
    failed before: no circuit, RE, UGE, DLE, QLE, the trusted stage's limits)."""
    if spec.mode == "classical" or spec.predicate is not None:
        return {}  # no one target: _with_fidelity says so
    simulated = [i for i, c in checked.items() if c.status in ("AC", "WA") and c.credit is not None]
    if verdict.judge_error or any(c.judge_error for c in checked.values()):
        return {"mean_fidelity": None, "fidelity_source": "judge error", "fidelity_simulated": 0}
    if first_failure and verdict.status != "AC":
        return {"mean_fidelity": None, "fidelity_source": "first failure",
                "fidelity_simulated": len(simulated)}
    total = sum(1.0 if checked[i].status == "AC" else float(checked[i].credit or 0.0)
                for i in simulated)
    source = ("simulated" if len(simulated) == len(cases) else
              "partly simulated" if simulated else "not simulated")
    return {"mean_fidelity": total / len(cases) if cases else None, "fidelity_source": source,
            "fidelity_simulated": len(simulated)}


def _report(**flags: bool) -> dict[str, bool]:
    """The QCoder service's report flags of a verdict (false unless given)."""
    return {"runtime_error": False, "gate_violation": False, "depth_violation": False,
            "state_match": False, **flags}


def _channel(data: bytes | None, stderr: str = "") -> dict[str, Any]:
    """The UME channel: violation lines (each one counts) and whether it ends with END. A
    channel over its size limit was flooded (what follows the limit is not read): tampering.
    The refusals the harness also wrote to stderr count whatever became of the file (code
    running without a frame of the program can truncate a file, not a pipe's past)."""
    flooded = len(data or b"") > MAX_CHANNEL_BYTES
    data = (data or b"")[:MAX_CHANNEL_BYTES]
    lines = data.decode("utf-8", "replace").splitlines()
    violations = [ln[4:].strip()[:300] for ln in lines if ln.startswith("UME ")]
    violations += [ln[len(harness.STDERR_UME):].strip()[:300] for ln in stderr.splitlines()
                   if ln.startswith(harness.STDERR_UME)]
    if flooded:
        violations.append(f"the program flooded the judge's UME channel (over "
                          f"{MAX_CHANNEL_BYTES >> 10} KB): tampered with")
    return {"violations": list(dict.fromkeys(violations)),
            "ended": bool(lines) and lines[-1] == "END"}


#: ``_checked``'s failures that are no test's: the check itself failed; the link was cut short
#: (the program's job ended mid-frame); the program wrote on the link (a frame the harness
#: never writes)
CHECK_FAILED, LINK_CUT, LINK_TAMPERED = -1, -2, -3


def _checked(r: Any) -> tuple[dict[int, CaseResult], tuple[int, str] | None]:
    """The trusted check's per-case results, validated; and what cut it short, if anything:
    ``(the case it died on, why)``, or ``(CHECK_FAILED | LINK_CUT | LINK_TAMPERED, why)``."""
    out: dict[int, CaseResult] = {}
    started = protocol = None
    tampered = False
    for d in read_result(r, check.OUTPUT, MAX_REPORT_BYTES, lines=True).value or []:
        if isinstance(d, dict) and isinstance(d.get("protocol"), str):
            protocol, tampered = d["protocol"][:1000], d.get("tampered") is True
        if not isinstance(d, dict) or not isinstance(d.get("i"), int):
            continue
        if d.get("started"):
            started = d["i"]
            continue
        if d.get("status") not in STATUSES:
            continue
        started = None
        out[d["i"]] = CaseResult(
            d["status"], str(d.get("message") or "")[:3000],
            _num(d.get("fidelity"), float), _num(d.get("depth"), int), _str(d.get("gate")),
            _num(d.get("queries"), int), judge_error=d.get("judge_error") is True,
            credit=_fraction(d.get("credit")),
            simulation_limit=d.get("judge_error") is True
            and str(d.get("message") or "").startswith(check.JUDGE_LIMIT))
    failure = None
    if started is not None:
        why = {"memory": "its memory limit", "timeout": "its time limit"}.get(r.status, r.status)
        failure = (started, f"the judge could not read or simulate this circuit within {why} "
                            "(hostile or oversized output)")
    elif r.status != "ok":
        failure = (CHECK_FAILED, f"trusted check {r.status}: {(r.stderr or '')[-500:]}")
    elif protocol:
        failure = (LINK_TAMPERED if tampered else LINK_CUT, protocol)
    return out, failure


def _num(x: Any, kind: type) -> Any:
    return kind(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def _fraction(x: Any) -> float | None:
    """A fidelity in [0, 1] (anything else, NaN included: None)."""
    x = _num(x, float)
    return x if x is not None and 0.0 <= x <= 1.0 else None


def _str(x: Any) -> str | None:
    return str(x)[:200] if x is not None else None
