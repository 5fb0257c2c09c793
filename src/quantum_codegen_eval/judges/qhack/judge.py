"""The QHack judge: a completion's solution parts inside the official harness, one sandbox job per
public test producing data only, the verdict decided in a trusted job or in the judge.

Protocol (docs/benchmarks/qhack.md states it for citation):

1. Extract the code (fenced block, else the plain text). None: ``FORMAT`` (no code); does not
   parse: ``FORMAT`` (syntax error); a required function missing: ``FORMAT``; a required function
   that cannot take the template's positional arguments: ``FORMAT`` (template broken).
2. Keep only the solution parts of the completion (:func:`.program.prepare`).
3. Build the program from the record's template chunks in order, the solution in place of the
   editable chunks; then the given definitions and the official ``run``/``check`` once more.
4. Stage 1, untrusted: each public test is a sandbox job (era interpreter, the record's
   ``time_limit`` in CPU seconds) that returns the raw output of ``run(input)`` as tagged JSON (or
   2022's printed output). No expected output is in it. Where the official ``check()`` needs the
   solution's live objects, the job also emits the solution's circuit (:mod:`.circuits`) or
   records the calls of its functions while the official ``run()``/``check()`` run
   (:mod:`.record`).
5. The judge validates each output's type and shape against the expected one (else ``WA``);
   2022 is compared here. Stage 2, trusted: one job per sample in the same era interpreter whose
   source is the harness's imports and ``check()`` only runs ``check(output, expected)``.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from dataclasses import dataclass
from typing import Any

from ...formats.python_source import MAX_SOURCE_BYTES, call_deep
from ...verdict import TestResult, Verdict
from ..base import (
    Evidence,
    job_hash_seed,
    judge_error,
    judge_limitation,
    limit_status,
    make_verdict,
    read_result,
    run_timings,
    wall_limit,
)
from . import checks, circuits, oracle, payload, record
from .checks import check_trust, compare_script
from .program import SOLUTION_FILE, FormatProblem, chunks_of, get, prepare, program_parts
from .runner import (
    CHECK_FILE,
    CHECKED_FILE,
    JOB_FILE,
    RESULT_FILE,
    program_job,
    result_name,
    trusted_job,
)

#: CPU seconds added to each test's limit for the harness's own imports and set-up
STARTUP_ALLOWANCE = 10.0
#: the wall-clock limit is a backstop: ``judges.base.wall_limit`` of the CPU limit, plus this
#: start-up allowance
WALL_STARTUP = 30.0
#: CPU seconds of the trusted check job
TRUSTED_CPU = 60.0
#: the job-id suffix of a hidden-oracle script run as the contest ran it (the oracle in the
#: program's process): a stage after rounds that did not accept, which tells a program the
#: contest accepts (a judge limitation, ``oracle_in_process``) from one it rejects
CONTEST_JOB = "::contest"
#: largest result file read back (bytes); larger is a wrong answer (output too large)
MAX_RESULT_BYTES = 48_000_000
#: largest trusted check file read back: the trusted job's file-size limit (``Limits``)
MAX_CHECKED_BYTES = 64 << 20
#: what a result file may cost once parsed, estimated from its raw bytes before parsing
#: (``judges.base.parsed_cost``: 48 MB of one-key objects parsed to 1.2 GB). More is a wrong
#: answer, "output too large", decided without parsing. The evaluator parses one result at a
#: time and keeps none (the trusted job gets the raw file and parses its tests one at a time
#: too), so each stays under 500 MB: about 165 MB before, plus this (at 512 MB the evaluator
#: peaked at 664 MB). A legitimate record (office_hijinks_200: 40,000 recorded calls) is
#: estimated at about 150 MB.
MAX_PARSED_BYTES = 256_000_000
#: (lightning: its sampler is replaced by a seeded one before the program runs, jobs/seeding.py)
PRELOAD = ("numpy", "pennylane", "pennylane_lightning.lightning_qubit")
#: the default of the judge option ``seed`` (every random draw of a judging derives from it)
DEFAULT_SEED = 0


@dataclass
class _Pending:
    """A test whose output passed validation and awaits the trusted check (which reads the
    program's result file again: nothing parsed is held here)."""

    result: bytes  # the program's result file, as it was validated
    got: str
    seconds: float | None


def _clean_error(raw: Any) -> dict[str, Any]:
    """The runner's error record with the types the judge relies on (it crossed from the
    program's process: anything else is dropped)."""
    raw = raw if isinstance(raw, dict) else {}

    def text(key: str, limit: int) -> str:
        value = raw.get(key)
        return value[-limit:] if isinstance(value, str) else ""

    frames = raw.get("frames") if isinstance(raw.get("frames"), list) else []
    frames = [[str(f[0]), f[1] if type(f[1]) is int else 0, str(f[2])] for f in frames[-40:]
              if isinstance(f, list) and len(f) == 3 and isinstance(f[0], str)]
    return {"phase": text("phase", 20), "type": text("type", 200) or "Error",
            "memory": raw.get("memory") is True,
            "module": text("module", 200), "message": text("message", 4000),
            "frames": frames, "traceback": text("traceback", 8000)}


def _shown(value: Any, limit: int = 10_000) -> str:
    """The output as shown in a verdict (bounded)."""
    try:
        text = value if isinstance(value, str) else repr(value)
    except Exception as exc:  # noqa: BLE001 - shown, never decisive
        text = f"<unprintable output: {type(exc).__name__}>"
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


class QHackJudge:
    """Judge for QHack completions (see the module docstring for the protocol).

    ``env="era"`` runs in the challenge year's era environment (created on first use);
    ``env="current"`` runs in this interpreter's PennyLane with the harness-only shims of
    :mod:`.shims` (``shims=False`` leaves them out); ``python=`` forces an interpreter.
    ``time_scale`` multiplies every record's time limit; ``trusted_cpu`` is the trusted check
    job's own CPU seconds (a recorded replay adds each pending test's limit). ``env_python(name) -> path`` gives the
    interpreter of an era environment (the benchmark declares and builds its environments; the
    judge only asks for them by the record's ``era_env``). ``seed`` (an int, default
    :data:`DEFAULT_SEED`) fixes every random draw of a judging: each test's draws (the harness's
    oracles, couplings and shots, in the program's job and in the trusted check) come from a seed
    derived from it, the challenge and the test (:meth:`test_seed`), so the same program gets the
    same verdict on every run and on resume; :meth:`options` records it. ``state_cache=False``
    turns off the recorded replays' state cache and oracle memo (:mod:`.record`: the same shots
    and verdicts, slower; kept so that the equivalence can be re-checked).
    """

    benchmark = "qhack"
    #: the official harness and tests run on the program's data in a fixed era interpreter;
    #: random choices are seeded (docs/evaluate.md)
    deterministic = True
    #: a plain challenge takes two stages (program, trusted check); a hidden oracle more
    max_stages = max(2, oracle.STAGES + 1)  # the rounds, then the contest's protocol

    def __init__(self, env: str = "era", *, python: str | None = None, time_scale: float = 1.0,
                 startup_allowance: float = STARTUP_ALLOWANCE, memory_mb: int = 4096,
                 trusted_cpu: float = TRUSTED_CPU, seed: int = DEFAULT_SEED,
                 shims: bool = True, env_python: Any = None, state_cache: bool = True,
                 max_code_bytes: int = MAX_SOURCE_BYTES):
        if env not in ("era", "current"):
            raise ValueError(f"QHack env must be 'era' or 'current', got {env!r}")
        if type(seed) is not int or not 0 <= seed < 2 ** 63:
            raise ValueError(f"seed must be an integer in [0, 2**63), got {seed!r}")
        self.seed = seed
        if not time_scale > 0:
            raise ValueError(f"time_scale must be positive, got {time_scale!r}")
        self.env = env
        self.python = python
        self.time_scale = float(time_scale)
        self.startup_allowance = startup_allowance
        self.trusted_cpu = float(trusted_cpu)
        self.memory_mb = memory_mb
        self.shims = shims
        self.state_cache = bool(state_cache)
        if type(max_code_bytes) is not int or max_code_bytes < 1:
            raise ValueError(f"max_code_bytes must be a positive integer, got {max_code_bytes!r}")
        self.max_code_bytes = max_code_bytes
        self._pythons: dict[str, str | None] = {}
        self._env_python = env_python

    def signature(self) -> dict[str, Any]:
        """The options that can change a verdict (``judges.base.Judge.signature``)."""
        return self.options()

    def options(self) -> dict[str, Any]:
        """The options that decide this judge's verdicts (for a report's provenance)."""
        return {"env": self.env, "seed": self.seed, "hash_seed": job_hash_seed(self.seed),
                "time_scale": self.time_scale,
                "startup_allowance": self.startup_allowance, "memory_mb": self.memory_mb,
                "trusted_cpu": self.trusted_cpu, "shims": self.shims, "python": self.python,
                "state_cache": self.state_cache, "max_code_bytes": self.max_code_bytes}

    def test_seed(self, problem: Any, index: int, *salt: str) -> int:
        """The seed of one public test's random draws: from the option ``seed``, the challenge
        id, the test's position and name (and ``salt``), the same in every process and run."""
        test = self._tests(problem)[index]
        key = "\0".join([str(self.seed), str(get(problem, "id")), str(index), str(test["name"]),
                         *salt])
        return zlib.crc32(key.encode("utf-8", "surrogatepass")) % (2 ** 31 - 2)

    def reads(self, problem: Any, code: str | None) -> str | None:
        """What the verdict depends on: the code (``None``: no code)."""
        return code

    def repeatable(self, problem: Any) -> bool:
        """False where the trusted check seeds the harness's hidden draws afresh on each judging
        (:mod:`.record`, ``hidden_draws``): copies of a program are then judged each."""
        recorded = record.RECORD_CHECKS.get(get(problem, "id"))
        return recorded is None or not recorded.hidden_draws

    # -- planning
    def prepare(self, problems: list[Any]) -> None:
        """Find (creating when missing) the era interpreters these problems run in, before
        any job is planned, so that a progress bar does not count their creation."""
        for problem in problems:
            self.interpreter(problem)

    def interpreter(self, problem: Any) -> str | None:
        if self.python is not None:
            return self.python
        if self.env == "current":
            return None
        name = get(problem, "era_env")
        if name not in self._pythons:
            if self._env_python is None:
                raise ValueError("QHack env='era' needs env_python (the benchmark's environments);"
                                 " make the judge with benchmarks.qhack.make_judge()")
            self._pythons[name] = str(self._env_python(name))
        return self._pythons[name]

    def _rewrite(self):
        if self.env != "current" or not self.shims:
            return None
        from .shims import rewrite_harness

        return rewrite_harness

    def limits(self, problem: Any) -> Any:
        """Per-test limits: the record's CPU seconds (scaled) plus start-up; wall as backstop."""
        from ...execution.types import Limits

        cpu = float(get(problem, "time_limit")) * self.time_scale + self.startup_allowance
        return Limits(wall_time=wall_limit(cpu, WALL_STARTUP), cpu_time=cpu,
                      memory_mb=self.memory_mb)

    def _tests(self, problem: Any) -> list[dict[str, Any]]:
        return list(get(problem, "tests")) or [{"name": "run only", "input": "",
                                                "expected": None}]

    def program_jobs(self, problem: Any, solution: str, *, contest: bool = False) -> list[Any]:
        """One untrusted job per public test (a run-only job when the challenge has none);
        ``contest``: a hidden-oracle script run as the contest ran it (the driver on the test's
        input, the oracle built in the program's process), job ids ending in
        :data:`CONTEST_JOB`."""
        rewrite = self._rewrite()
        parts = program_parts(problem, solution, rewrite=rewrite)
        fmt = get(problem, "format")
        driver = get(problem, "driver")
        if rewrite is not None and fmt == "script":
            driver = rewrite(driver)
        trust = check_trust(problem)
        recorded = record.RECORD_CHECKS.get(get(problem, "id"))
        live = (trust == checks.LIVE or recorded is not None) and bool(get(problem, "tests"))
        emit = rec = None
        if recorded is not None:
            rec = self._record_spec(recorded)
        elif trust == checks.CIRCUIT:
            emit = circuits.CIRCUIT_CHECKS[get(problem, "id")].emit
        limits, python = self.limits(problem), self.interpreter(problem)
        if oracle.spec_of(get(problem, "id")) is not None and not contest:  # queried in rounds
            return [self._oracle_job(problem, parts, driver, i, [])
                    for i in range(len(self._tests(problem)))]
        jobs = []
        tests = self._tests(problem)
        for i, t in enumerate(tests):
            earlier = [e["input"] for e in tests[:i]] if recorded is not None and \
                recorded.earlier_tests else []
            spec = {"parts": parts, "format": fmt, "driver": driver,
                    "input": t["input"], "earlier": earlier,
                    "live_check": live, "emit": emit, "record": rec,
                    "shims": rewrite is not None, "seed": self.test_seed(problem, i)}
            jobs.append(program_job(hash_seed=job_hash_seed(self.seed),
                                    id=f"{get(problem, 'id')}::{t['name']}"
                                       + (CONTEST_JOB if contest else ""),
                                    files={JOB_FILE: json.dumps(spec)}, collect=(RESULT_FILE,),
                                    python=python, preload=PRELOAD, limits=limits))
        return jobs

    def _record_spec(self, recorded: record.RecordCheck,
                     decorators: dict[str, list[str]] | None = None) -> dict[str, Any]:
        """``recorded.spec()``, its speed-ups off with the option ``state_cache=False``."""
        spec = recorded.spec(decorators)
        if not self.state_cache:
            spec.update(state_cache=False, oracle_memo=False)
        return spec

    def trusted_check(self, problem: Any) -> tuple[list[tuple[str, bool]], dict[str, Any]] | None:
        """(harness parts, check) of the trusted stage (:func:`.runner.trusted_job`), or
        ``None`` when it has nothing to do."""
        if get(problem, "format") == "script" or not get(problem, "tests"):
            return None
        fix = self._rewrite() or (lambda s: s)
        trust = check_trust(problem)
        recorded = record.RECORD_CHECKS.get(get(problem, "id"))
        if recorded is not None:  # all harness code, then the stand-ins and the official check
            chunks = chunks_of(problem)
            parts = [("\n".join(fix(c.text) for c in chunks if c.kind in ("import", "given")),
                      False)]
            parts += [(fix(s), True) for s in record.template_statements(problem)]
            parts += [("\n".join(fix(c.text) for c in chunks if c.kind in ("run", "check")),
                       False)]
            return parts, self._record_spec(recorded,
                                            record.decorators(problem, recorded.qfuncs))
        if trust == checks.CIRCUIT:
            cc = circuits.CIRCUIT_CHECKS[get(problem, "id")]
            chunks = chunks_of(problem)
            harness = [c.text for c in chunks if c.kind == "import"]
            if cc.replay:  # all given code, the official run() and check(), then the replay
                harness += [c.text for c in chunks if c.kind in ("given", "run", "check")]
            return [("\n".join(fix(h) for h in harness), False)], cc.check_spec()
        if trust == checks.DATA:
            chunks = chunks_of(problem)
            imports = "\n".join(fix(c.text) for c in chunks if c.kind == "import")
            # the harness and check in one text, as in the notebook
            check = fix(checks.check_source(problem))
            return [(imports.rstrip() + "\n\n\n" + check.rstrip() + "\n", False)], \
                {"kind": "official"}
        if get(problem, "compare", ""):
            return [], {"kind": "compare", "rule": json.loads(get(problem, "compare"))}
        return None

    def jobs(self, problem: Any, code: str | None) -> list[Any] | Verdict:
        if code is None or not code.strip():
            return self._format(problem, "no_code", "no code found in the completion")
        size = len(code.encode("utf-8", "surrogatepass"))
        if size > self.max_code_bytes:
            return self._format(problem, "too_large", f"the code has {size:,} bytes, over the "
                                f"judge's max_code_bytes ({self.max_code_bytes:,}): not parsed")
        try:  # an era's interpreter compiles deeper expressions than our default limit allows
            return call_deep(self._program_jobs_of, problem, code)
        except FormatProblem as exc:
            return self._format(problem, exc.reason, str(exc))
        except (RecursionError, MemoryError) as exc:
            # what the contest's interpreter raises compiling it too: the program's error
            return make_verdict(self, get(problem, "id"), "RE",
                                f"the code cannot be compiled: {type(exc).__name__}: {exc}"[:500],
                                tests_total=max(1, len(get(problem, "tests"))),
                                details={"env": self.env, "seed": self.seed,
                                         "check_trust": check_trust(problem)},
                                evidence=Evidence(exception_type=type(exc).__name__))

    def _program_jobs_of(self, problem: Any, code: str) -> list[Any]:
        return self.program_jobs(problem, prepare(problem, code).source)

    def _format(self, problem: Any, reason: str, message: str) -> Verdict:
        return make_verdict(self, get(problem, "id"), "FORMAT", message,
                            tests_total=max(1, len(get(problem, "tests"))),
                            details={"format": reason, "env": self.env, "seed": self.seed,
                                     "check_trust": check_trust(problem)})

    # -- deciding
    def _first(self, problem: Any, test: dict[str, Any], r: Any,
               ) -> tuple[TestResult | _Pending, dict | None]:
        """Stage 1 of one test: a final result, or the validated output for the trusted check."""
        name, expected = test["name"], test["expected"]
        seconds = getattr(r, "cpu_time", None) or getattr(r, "wall_time", None)

        def result(status: str, message: str, got: Any = None) -> TestResult:
            return TestResult(name, status == "AC", status, expected=expected, got=got,
                              message=message, seconds=seconds)

        read = read_result(r, RESULT_FILE, MAX_RESULT_BYTES, max_parsed=MAX_PARSED_BYTES)
        if read.limit_status == "TLE":
            return result("TLE", "time limit exceeded"), None
        if read.limit_status == "MLE":
            return result("MLE", "memory limit exceeded"), None
        over = read.failure if read.failure and read.failure.reason == "oversized" else None
        if over and not over.parsed:
            return result("WA", "output too large"), None
        if over:
            return result("WA", f"output too large (parsed, it would take about "
                                f"{over.size // 1_000_000:,} MB; the judge reads at most "
                                f"{over.limit // 1_000_000:,} MB per result)"), None
        res = read.value
        if not isinstance(res, dict):
            tail = (r.stderr or "")[-500:]
            err = {"phase": "exit", "type": getattr(r.exception, "type", "") or r.status,
                   "message": f"the program ended without a result ({r.status}). {tail}",
                   "frames": []}
            return result("RE", err["message"]), err
        if "error" in res:
            err = _clean_error(res["error"])
            if limit_status(read.status, memory_error=err["memory"]) == "MLE":
                return result("MLE", f"memory limit exceeded ({err['type']} "
                                     f"{'in ' + err['phase'] if err['phase'] else ''})"), None
            where = {"load": "while loading", "run": "in run()", "check": "in check()",
                     "driver": "in the driver"}.get(err.get("phase"), "")
            msg = f"{err.get('type')} {where}: {err.get('message', '')}".strip()[:4000]
            if err["phase"] == "check" and not any(f[0] == SOLUTION_FILE for f in err["frames"]):
                return result("WA", "check() rejected the output: " + msg), None
            return result("RE", msg), err
        if get(problem, "format") == "script":
            stdout = res.get("stdout") if isinstance(res.get("stdout"), str) else ""
            rule = json.loads(get(problem, "compare") or '{"func": "tokens", "rel": null}')
            ok, why = compare_script(stdout, expected, rule)
            return TestResult(name, ok, "AC" if ok else "WA", expected=expected.strip(),
                              got=stdout.strip()[-2000:], message=why, seconds=seconds), None
        if "output_error" in res or "output" not in res:
            return result("WA", f"run() returned no usable output "
                                f"({str(res.get('output_error', 'none'))[:200]})"), None
        try:
            output = payload.decode(res["output"])
        except Exception:  # noqa: BLE001 - any payload the decoder cannot read is malformed
            return result("WA", "run() returned a malformed output"), None
        got = _shown(output)
        recorded = get(problem, "id") in record.RECORD_CHECKS
        if expected is not None and (recorded or check_trust(problem) != checks.CIRCUIT):
            why = checks.validate(problem, output, expected, test["input"])
            if why:
                return result("WA", why, got), None
        raw = (r.files or {})[RESULT_FILE]
        if recorded:  # the trusted job replays the record (its output is checked there)
            return _Pending(raw, got, seconds), None
        if expected is not None and check_trust(problem) == checks.LIVE:
            # the official check() ran in the program's process (forgeable: flagged)
            chk = res.get("check") if isinstance(res.get("check"), dict) else {}
            if chk.get("passed") is not True:
                why = str(chk.get("message") or "check() failed")[:2000]
                return result("WA", why, got), None
        if expected is None or self.trusted_check(problem) is None:
            return result("AC", "", got), None
        return _Pending(raw, got, seconds), None

    def _trusted_job(self, problem: Any, code: str | None, tests: list[dict],
                     pending: list[tuple[int, _Pending]]):
        from ...execution.types import Limits

        harness, check = self.trusted_check(problem)  # type: ignore[misc]
        raw = get(problem, "id") in record.RECORD_CHECKS
        # draws the program must not see (a hidden_draws replay): seeded from the code too,
        # so no seed the program's job had, or could derive from the option alone, gives them
        digest = hashlib.sha256((code or "").encode("utf-8", "surrogatepass")).hexdigest()
        spec = {"seed": self.test_seed(problem, 0, "trusted"),
                "tests": [{"result": result_name(i), "expected": tests[i]["expected"],
                           "input": tests[i]["input"], "raw": raw,
                           "seed": self.test_seed(problem, i),
                           "hidden_seed": self.test_seed(problem, i, "hidden", digest)}
                          for i, p in pending]}
        cpu = self.trusted_cpu
        if raw:  # the replay re-simulates what the official check measures, test by test
            cpu += len(pending) * float(get(problem, "time_limit")) * self.time_scale
        return trusted_job(harness, check, shims=self._rewrite() is not None,
                           hash_seed=job_hash_seed(self.seed),
                           id=f"{get(problem, 'id')}::trusted-check",
                           files={CHECK_FILE: json.dumps(spec),
                                  **{result_name(i): p.result for i, p in pending}},
                           collect=(CHECKED_FILE,),
                           python=self.interpreter(problem), preload=PRELOAD, trusted=True,
                           limits=Limits(wall_time=wall_limit(cpu, WALL_STARTUP),
                                         cpu_time=cpu, memory_mb=self.memory_mb))

    # -- hidden oracles (:mod:`.oracle`): the program's job and the trusted job of one round
    def _oracle_job(self, problem: Any, parts: list, driver: str, index: int,
                    answers: list[dict]) -> Any:
        from .. import _embed
        from .jobs import oracle_program

        spec = oracle.spec_of(get(problem, "id"))
        job = {"parts": parts, "driver": driver, "input": spec.decoy, "answers": answers,
               "shims": self._rewrite() is not None,
               "oracle": oracle.job_oracle(spec), "seed": self.test_seed(problem, index)}
        return _embed.job(oracle_program, hash_seed=job_hash_seed(self.seed),
                          id=f"{get(problem, 'id')}::"
                          f"{self._tests(problem)[index]['name']}::round{len(answers)}",
                          files={oracle_program.JOB_FILE: json.dumps(job)},
                          collect=(RESULT_FILE,), python=self.interpreter(problem),
                          preload=PRELOAD, limits=self.limits(problem))

    def _oracle_answer_job(self, problem: Any, asks: list[tuple[int, int, dict]]) -> Any:
        from ...execution.types import Limits
        from .. import _embed
        from .jobs import oracle_answer

        fix = self._rewrite() or (lambda s: s)
        harness = "\n".join(fix(c.text) for c in chunks_of(problem) if c.kind == "import")
        spec = oracle.spec_of(get(problem, "id"))
        tests = self._tests(problem)
        job = {"harness": harness, "driver": fix(get(problem, "driver")),
               "shims": self._rewrite() is not None,
               "function": spec.function, "wires": oracle.job_oracle(spec)["wires"],
               "tests": [{"input": tests[i]["input"], "seed": self.test_seed(problem, i),
                          "queries": [{"query": q, "seed": self.test_seed(
                              problem, i, "oracle", str(asked))}]} for i, asked, q in asks]}
        cpu = self.trusted_cpu
        return _embed.job(oracle_answer, hash_seed=job_hash_seed(self.seed),
                          id=f"{get(problem, 'id')}::oracle",
                          files={oracle_answer.CHECK_FILE: json.dumps(job)},
                          collect=(oracle_answer.CHECKED_FILE,),
                          python=self.interpreter(problem), preload=PRELOAD, trusted=True,
                          limits=Limits(wall_time=wall_limit(cpu, WALL_STARTUP),
                                        cpu_time=cpu, memory_mb=self.memory_mb))

    def _oracle_decide(self, problem: Any, code: str | None, results: list[Any],
                       ) -> Verdict | list[Any]:
        from .jobs.oracle_answer import CHECKED_FILE

        rewrite = self._rewrite()
        solution = prepare(problem, code or "").source
        parts = program_parts(problem, solution, rewrite=rewrite)
        driver = get(problem, "driver") if rewrite is None else rewrite(get(problem, "driver"))
        contest = [r for r in results if str(getattr(r, "id", "")).endswith(CONTEST_JOB)]
        results = results[:len(results) - len(contest)]
        out = oracle.step(
            len(self._tests(problem)), results, RESULT_FILE,
            lambda r, count: oracle.answers_in(r, CHECKED_FILE, count),
            lambda i, answers: self._oracle_job(problem, parts, driver, i, answers),
            lambda asks: self._oracle_answer_job(problem, asks))
        if isinstance(out, list):
            return out
        if isinstance(out, oracle.Limit):
            return judge_limitation(self, get(problem, "id"), "oracle_rounds", out.message,
                                    oracle_test=out.test)
        verdict = self._decide_tests(problem, code, out.results)
        if not isinstance(verdict, Verdict):  # a 2022 script has no trusted check stage
            return judge_error(self, get(problem, "id"), "unexpected stage after the rounds")
        verdict.timings = run_timings(results + contest)
        verdict.details["oracle_queries"] = out.queries
        if verdict.status in ("AC", "FORMAT") or verdict.judge_error:
            return verdict
        if not contest:  # would the contest, whose program held the oracle, accept it?
            return self.program_jobs(problem, solution, contest=True)
        upstream = self._decide_tests(problem, code, contest)
        if isinstance(upstream, Verdict) and upstream.status == "AC":
            return judge_limitation(
                self, get(problem, "id"), "oracle_in_process",
                f"judge limitation: the contest's protocol (its driver on the test's input, the "
                f"oracle built in the program's process) accepts this program; this judge's "
                f"rounds, where the program never holds the oracle, give {verdict.status}: "
                f"{verdict.message}"[:4000],
                tests=verdict.tests, timings=verdict.timings,
                rounds_status=verdict.status, oracle_queries=out.queries)
        return verdict

    def decide(self, problem: Any, code: str | None, results: list[Any]) -> Verdict | list[Any]:
        if oracle.spec_of(get(problem, "id")) is not None:
            return self._oracle_decide(problem, code, results)
        return self._decide_tests(problem, code, results)

    def _decide_tests(self, problem: Any, code: str | None, results: list[Any],
                      ) -> Verdict | list[Any]:
        tests = self._tests(problem)
        n = len(tests)
        first = [self._first(problem, t, r) for t, r in zip(tests, results[:n], strict=True)]
        pending = [(i, f[0]) for i, f in enumerate(first) if isinstance(f[0], _Pending)]
        if pending and len(results) == n:
            return [self._trusted_job(problem, code, tests, pending)]
        outcomes: list[tuple[TestResult, dict | None]] = [
            f if isinstance(f[0], TestResult) else (None, None) for f in first]  # type: ignore
        if pending:
            checked = self._checked(results[n], len(pending))
            status = limit_status(results[n].status)
            if checked is None and status:
                # the trusted job works on what the program produced (outputs, emitted or
                # recorded circuits): exceeding its limits is the program's doing, as it would
                # be in the contest's own check
                why = (f"the trusted check of the program's output exceeded its "
                       f"{'time' if status == 'TLE' else 'memory'} limit")
                checked = [{"status": status, "message": why}] * len(pending)
            if checked is None:
                return judge_error(self, get(problem, "id"), "the trusted check job failed: "
                                   f"{results[n].status} {(results[n].stderr or '')[-300:]}")
            for (i, p), c in zip(pending, checked, strict=True):
                t = tests[i]
                msg = str(c.get("message", ""))[:2000]
                if c.get("raised"):
                    msg = "check() rejected the output: " + msg
                ok = c.get("passed") is True
                outcomes[i] = (TestResult(t["name"], ok, "AC" if ok else c.get("status", "WA"),
                                          expected=t["expected"], got=p.got,
                                          message="" if ok else f"{msg} (have {p.got[:200]!r}, "
                                          f"want {str(t['expected'])[:200]!r})",
                                          seconds=p.seconds), None)
        return self._conclude(problem, code, results, outcomes)

    @staticmethod
    def _checked(r: Any, count: int) -> list[dict] | None:
        data = read_result(r, CHECKED_FILE, MAX_CHECKED_BYTES).value if r.status == "ok" else None
        out = data.get("outcomes") if isinstance(data, dict) else None
        if not isinstance(out, list) or len(out) != count or not all(
                isinstance(o, dict) for o in out):
            return None
        return out

    def _conclude(self, problem: Any, code: str | None, results: list[Any],
                  outcomes: list[tuple[TestResult, dict | None]]) -> Verdict:
        """The verdict from every test's outcome: AC, or the first failing test's status with
        its error-class evidence."""
        detail = [o[0] for o in outcomes]
        passed = sum(t.passed for t in detail)
        pid = get(problem, "id")
        details: dict[str, Any] = {"env": self.env, "check_trust": check_trust(problem),
                                   "seed": self.seed,
                                   "python": self.interpreter(problem)
                                   if self.env == "era" or self.python else None}
        if not get(problem, "tests"):
            details["unverified"] = "no public test has an expected output; run-only check"
        timings = run_timings(results)
        if passed == len(detail):
            return make_verdict(self, pid, "AC", tests=detail, timings=timings, details=details)
        first = next(i for i, t in enumerate(detail) if not t.passed)
        status = detail[first].status or "WA"
        err = outcomes[first][1]
        evidence = None
        if status not in ("TLE", "MLE", "WA"):
            hall = find_hallucinated(code or "", get(problem, "pennylane_version"))
            # evidence for verdict.with_error_class, which gives the class: the names, or true
            # when only the message showed one
            klass = classify_exception(err or {}, hall)
            evidence = Evidence(hallucinated=tuple(hall) or klass == "hallucination",
                                raised_in_framework=klass == "api_misuse")
            if err and err.get("phase") == "load" and not any(
                    f[0] == SOLUTION_FILE for f in err.get("frames") or []):
                details["harness_error"] = True
            if err and err.get("traceback"):
                details["traceback"] = str(err["traceback"])[-3000:]
        message = f"{detail[first].name}: {detail[first].message}"
        return make_verdict(self, pid, status, message, tests=detail, evidence=evidence,
                            timings=timings, details=details)


# ---------------------------------------------------------------- error classes

_PL_FRAME = re.compile(r"[/\\](pennylane|pennylane_lightning|autograd|autoray)[/\\]")


def classify_exception(err: dict[str, Any], hallucinated: list[str]) -> str:
    """hallucination / api_misuse / reasoning for a runtime error record from the runner."""
    etype, msg = str(err.get("type", "")), str(err.get("message", ""))
    names = set(hallucinated)
    if etype in ("AttributeError", "ImportError", "ModuleNotFoundError", "NameError"):
        if any(n.split(".")[-1] in msg for n in names):
            return "hallucination"
        if re.search(r"module 'pennylane[\w.]*' has no attribute|cannot import name .* from "
                     r"'pennylane|autoray couldn't find function", msg):
            return "hallucination"
    frames = [f for f in err.get("frames") or [] if isinstance(f, list) and f]
    if any(_PL_FRAME.search(str(f[0])) for f in frames) and any(
            f[0] == SOLUTION_FILE for f in frames):
        return "api_misuse"
    if etype in ("AttributeError", "TypeError") and re.search(
            r"'(QNode|Device|DefaultQubit\w*|Operation|Operator|Tensor|Hamiltonian|"
            r"QuantumTape|QuantumScript|MeasurementProcess)\w*' object", msg):
        return "api_misuse"
    return "reasoning"


def find_hallucinated(code: str, version: str) -> list[str]:
    """qml.* names in ``code`` that PennyLane ``version`` does not have ([] when the index is
    not available)."""
    try:
        from ...metrics.hallucination import find_hallucinations
    except ImportError:
        return []
    try:
        found = find_hallucinations(code, version)
    except Exception:  # noqa: BLE001 - the index may not cover this version
        return []
    return [str(f.name) for f in found or [] if getattr(f, "status", "ok") != "ok"]


def harness_incompatibility(result: dict[str, Any]) -> str | None:
    """For a run of the *unfilled* template: the error that comes from the benchmark's own code
    (an API its PennyLane lacks), or ``None`` when it failed only because the solution is missing.

    Loading must succeed (imports, given code, stub headers); afterwards ImportErrors and
    AttributeErrors on anything but ``None`` count as incompatibilities.
    """
    err = result.get("error")
    if not err:
        return None
    text = f"{err.get('phase')}: {err.get('type')}: {err.get('message')}"
    if err.get("phase") == "load":
        return text
    msg = err.get("message", "")
    if err.get("type") in ("ImportError", "ModuleNotFoundError") and re.search(
            r"cannot import name|No module named", msg):
        return text
    if err.get("type") == "AttributeError" and "'NoneType'" not in msg:
        return text
    return None
