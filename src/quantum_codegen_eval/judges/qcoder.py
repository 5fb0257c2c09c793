"""The QCoder judge: RE -> UME -> UGE -> DLE -> WA/AC, decided locally.

The candidate runs only in the sandbox (see ``qcoder_harness``): it builds one circuit per test
case and writes it as QPY. The trusted parent reads the QPY back, inlines user-defined gates,
checks instructions (UGE), depth and oracle-query counts (DLE), and simulates the circuit with
numpy (``qcoder_sim``) against the spec's target (``qcoder_specs``).

Acceptance: ``||out - e^{i phi} ref||^2 <= TOL * ||ref||^2`` over the tested columns taken
together (one common phase; ``phi`` free when the global phase is ignored, 0 when it counts),
with ``TOL = 1e-6``; problems with a looser statement condition use their own predicate.

>>> from quantum_codegen_eval.judges.qcoder import static_imports
>>> static_imports("import os\\nfrom qiskit import QuantumCircuit", ["qiskit.QuantumCircuit"])
['import os']
"""

from __future__ import annotations

import ast
import io
import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..verdict import TestResult, Verdict
from . import qcoder_sim as sim
from .qcoder_harness import HARNESS

TOL = 1e-6
#: verdict severity when several test cases fail differently
SEVERITY = ("RE", "UME", "UGE", "DLE", "TLE", "MLE", "WA")
_LIB_MODULE = "qiskit.circuit.library"


def library_names() -> list[str]:
    """Names importable from ``qiskit.circuit.library`` under the rules (the standard gates)."""
    import qiskit.circuit.library.standard_gates as sg

    return sorted(n for n in dir(sg) if not n.startswith("_"))


def _split_allowed(allowed: list[str]) -> tuple[list[str], list[str]]:
    """Allowed dotted entries -> (modules, module.name entries)."""
    mods, names = [], []
    for a in allowed:
        head, _, tail = a.rpartition(".")
        (names if tail[:1].isupper() else mods).append(a)
    return mods, names


def static_imports(code: str, allowed: list[str]) -> list[str]:
    """Import statements in ``code`` outside the permitted list (syntax errors raise)."""
    mods, names = _split_allowed(allowed)
    lib = set(library_names())

    def mod_ok(m: str) -> bool:
        return m == "__future__" or any(m == a or m.startswith(a + ".") for a in mods)

    bad = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            bad += [f"import {a.name}" for a in node.names if not mod_ok(a.name)]
        elif isinstance(node, ast.ImportFrom):
            m = node.module or ""
            if node.level:
                bad.append(f"from {'.' * node.level}{m} import ...")
            elif not mod_ok(m):
                bad += [f"from {m} import {a.name}" for a in node.names
                        if f"{m}.{a.name}" not in names and not (m == _LIB_MODULE and a.name in lib)]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            bad.append("__import__(...)")
    return bad


def extract_code(completion: str) -> str:
    """The last python code block of a model answer, or the whole text when it has none."""
    blocks = re.findall(r"```(?:python|py|Python)?[ \t]*\n(.*?)```", completion, re.S)
    return blocks[-1] if blocks else completion


@dataclass
class CaseResult:
    status: str
    message: str = ""
    fidelity: float | None = None
    depth: int | None = None
    gate: str | None = None
    queries: int | None = None


@dataclass
class QCoderJudge:
    """Judge one completion of one QCoder problem (``judges.base.Judge`` protocol)."""

    benchmark: str = "qcoder"
    timeout: float = 60.0
    memory_mb: int = 4096
    seed: int = 0
    #: stop checking at the first failing test (faster; tests_passed then counts up to it)
    first_failure: bool = False
    options: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ planning
    def cases(self, problem: Any) -> list[dict[str, Any]]:
        from .qcoder_specs import get_spec

        return get_spec(problem.id).sample(random.Random(f"{self.seed}:{problem.id}"))

    def jobs(self, problem: Any, completion: str) -> list[Any] | Verdict:
        from ..execution import Job, Limits
        from .qcoder_specs import get_spec

        spec = get_spec(problem.id)
        code = extract_code(completion)
        if not code.strip():
            return self._verdict(problem, "FORMAT", "the answer contains no code", {})
        try:
            bad = static_imports(code, list(problem.allowed_imports))
        except SyntaxError as exc:
            return self._verdict(problem, "RE", f"SyntaxError: {exc.msg} (line {exc.lineno})",
                                 {"runtime_error": True}, error_class="formatting")
        if bad:
            return self._verdict(problem, "UME", "module(s) outside the permitted list: "
                                 + ", ".join(bad), {}, details={"imports": bad},
                                 error_class="hallucination")
        cases = self.cases(problem)
        mods, names = _split_allowed(list(problem.allowed_imports))
        cfg = {"args": list(spec.args), "classical": spec.mode == "classical",
               "allowed_modules": mods, "allowed_names": names, "library_names": library_names(),
               "cases": [{"args": c["args"], "oracles": c.get("oracles", {}),
                          "pair": c.get("pair", {})} for c in cases]}
        outs = ("report.json",) + tuple(
            f"case_{i}.{'json' if spec.mode == 'classical' else 'qpy'}" for i in range(len(cases)))
        return [Job(HARNESS, id=f"qcoder:{problem.id}",
                    files={"candidate.py": code, "qcoder_cases.json": json.dumps(cfg)},
                    collect=outs, limits=Limits(wall_time=self.timeout, memory_mb=self.memory_mb))]

    # ------------------------------------------------------------------ deciding
    def decide(self, problem: Any, completion: str, results: list[Any]) -> Verdict:
        from .qcoder_specs import get_spec

        t0 = time.perf_counter()
        spec = get_spec(problem.id)
        cases = self.cases(problem)
        r = results[0]
        try:
            report = json.loads(r.files.get("report.json", b"") or b"null")
        except ValueError:
            report = None
        if not isinstance(report, dict):
            status = {"timeout": "TLE", "memory": "MLE"}.get(r.status, "RE")
            msg = (r.exception.message if getattr(r, "exception", None) else r.stderr[-2000:])
            return self._verdict(problem, status, f"the program failed before any test ({r.status})"
                                 + (f": {msg}" if msg else ""), {"runtime_error": status == "RE"},
                                 timings={"run": r.wall_time})
        if report.get("load_error"):
            return self._verdict(problem, "RE", report["load_error"], {"runtime_error": True},
                                 timings={"run": r.wall_time}, error_class="api_misuse")
        entries = {e.get("i"): e for e in report.get("cases", []) if isinstance(e, dict)}
        tests, outcomes = [], []
        for i, case in enumerate(cases):
            entry = entries.get(i)
            if entry is None:
                status = {"timeout": "TLE", "memory": "MLE"}.get(r.status, "RE")
                res = CaseResult(status, "not run (the program stopped earlier)"
                                 if status == "RE" else f"not run ({r.status})")
            elif entry.get("status") != "ok":
                res = CaseResult("RE", str(entry.get("error"))[-3000:])
            else:
                ext = "json" if spec.mode == "classical" else "qpy"
                res = self._case(problem, spec, case, r.files.get(f"case_{i}.{ext}"))
            outcomes.append((case, res))
            tests.append(TestResult(name=spec.case_name(case), passed=res.status == "AC",
                                    status=res.status, got=res.fidelity, message=res.message))
            if res.status in ("RE", "TLE", "MLE") or (self.first_failure and res.status != "AC"):
                break
        violations = report.get("import_violations") or []
        worst = "AC"
        for _, res in outcomes:
            if res.status != "AC" and (worst == "AC" or SEVERITY.index(res.status) < SEVERITY.index(worst)):
                worst = res.status
        if worst == "AC" and len(outcomes) < len(cases):
            worst = "TLE"
        if violations:  # a run-time import refused by the guard (the RE it causes is ours)
            worst = "UME"
        failing = next(((c, res) for c, res in outcomes if res.status == worst), None)
        if violations:
            failing = None
        rep = {"runtime_error": worst != "UME" and any(res.status == "RE" for _, res in outcomes),
               "gate_violation": any(res.status == "UGE" for _, res in outcomes),
               "depth_violation": any(res.status == "DLE" for _, res in outcomes),
               "state_match": worst == "AC"}
        details: dict[str, Any] = {"report": rep}
        if violations:
            details["imports"] = violations
        if failing:
            c, res = failing
            details.update(first_failing=spec.case_name(c), fidelity=res.fidelity,
                           depth=res.depth, depth_limit=problem.depth_limit,
                           violating_gate=res.gate, queries=res.queries)
        msg = "" if worst == "AC" else (
            "module(s) outside the permitted list: " + ", ".join(violations) if worst == "UME"
            else f"{failing[0] and spec.case_name(failing[0])}: {failing[1].message}" if failing
            else "the program did not finish all tests")
        passed = sum(t.passed for t in tests)
        return Verdict(benchmark=self.benchmark, problem_id=problem.id, status=worst,
                       tests_passed=passed, tests_total=len(cases), tests=tests,
                       error_class=_error_class(worst), message=msg,
                       timings={"run": r.wall_time, "check": time.perf_counter() - t0},
                       details=details)

    def _case(self, problem: Any, spec: Any, case: dict, data: bytes | None) -> CaseResult:
        if data is None:
            return CaseResult("RE", "no output was written for this test")
        if spec.mode == "classical":
            try:
                value = json.loads(data)
            except ValueError:
                return CaseResult("RE", "the returned value could not be read")
            ok, msg = spec.check(case["args"], value)
            return CaseResult("AC" if ok else "WA", msg, 1.0 if ok else 0.0)
        from qiskit import qpy

        try:
            circuits = qpy.load(io.BytesIO(data))
        except Exception as exc:  # noqa: BLE001 - any failure to read the circuit is the program's
            return CaseResult("RE", f"the returned circuit could not be read back: {exc}")
        if len(circuits) != 1:
            return CaseResult("RE", "expected one circuit")
        qc = circuits[0]
        want = spec.qubits(case)
        allowed_n = want if isinstance(want, tuple) else (want,)
        if qc.num_qubits not in allowed_n:
            return CaseResult("WA", f"the circuit has {qc.num_qubits} qubits; expected {allowed_n[0]}")
        trusted = spec.trusted(case)
        try:
            flat = sim.inline(qc, trusted)
        except sim.SimError as exc:
            return CaseResult("TLE", str(exc))
        d = sim.depth(flat)
        if flat.violations:
            return CaseResult("UGE", "instruction not allowed here: " + flat.violations[0], depth=d,
                              gate=flat.violations[0].split(" ")[0])
        for banned in problem.banned_gates:
            hit = next((p.op for p in flat.ops if type(p.op).__name__ == banned
                        or (banned == "SwapGate" and p.op.name == "swap")), None)
            if hit is not None:
                return CaseResult("UGE", f"{banned} is banned in this problem", depth=d,
                                  gate=hit.name)
        if problem.depth_limit is not None and d > problem.depth_limit:
            return CaseResult("DLE", f"circuit depth {d} exceeds {problem.depth_limit}", depth=d)
        queries = None
        if problem.query_limit is not None:
            queries = sim.count(flat, spec.query_gates)
            if queries > problem.query_limit:
                return CaseResult("DLE", f"{queries} applications of {problem.query_limit_gate} "
                                  f"exceed {problem.query_limit}", depth=d, queries=queries)
        try:
            ok, fid, msg = spec.compare(case, flat, qc.num_qubits)
        except sim.SimError as exc:
            return CaseResult("TLE", str(exc), depth=d)
        return CaseResult("AC" if ok else "WA", msg, fid, d, queries=queries)

    def _verdict(self, problem: Any, status: str, message: str, report: dict, *,
                 details: dict | None = None, timings: dict | None = None,
                 error_class: str | None = None) -> Verdict:
        rep = {"runtime_error": False, "gate_violation": False, "depth_violation": False,
               "state_match": False}
        rep.update(report)
        return Verdict(benchmark=self.benchmark, problem_id=problem.id, status=status,
                       tests_passed=0, tests_total=0, message=message,
                       error_class=error_class or _error_class(status),
                       timings=timings or {}, details={"report": rep, **(details or {})})


def _error_class(status: str) -> str | None:
    return {"AC": None, "WA": "reasoning", "DLE": "reasoning", "UGE": "api_misuse",
            "UME": "hallucination", "RE": "api_misuse", "TLE": "timeout", "MLE": "timeout",
            "FORMAT": "formatting"}.get(status)


def compare_vectors(out: np.ndarray, ref: np.ndarray, counted: bool) -> tuple[bool, float, str]:
    """AC test shared by the specs: one common phase over all columns (see module docstring)."""
    o, t = out.ravel(), ref.ravel()
    nt, no = float(np.vdot(t, t).real), float(np.vdot(o, o).real)
    ov = np.vdot(t, o)
    fid = float(abs(ov) ** 2 / (nt * no)) if nt and no else 0.0
    phase = 1.0 if counted else (ov / abs(ov) if abs(ov) > 1e-300 else 1.0)
    err = float(np.vdot(o - phase * t, o - phase * t).real) / nt
    if err <= TOL:
        return True, fid, ""
    if counted and fid >= 1 - TOL:
        return False, fid, f"correct up to a global phase e^(i*{np.angle(ov):.4f}), which counts here"
    return False, fid, f"fidelity {fid:.6f} with the expected {'state' if ref.ndim == 1 or ref.shape[1] == 1 else 'operation'}"
