"""A QCoder session with a forged side, for tests: the program's job's result as the program
could have left it (its report, its UME channel), and the trusted check run for real on what
the program could have sent on the link (``judges/jobs/frames.py``)."""

from __future__ import annotations

import dataclasses
import io
import json

from quantum_codegen_eval.execution import RunResult
from quantum_codegen_eval.judges.jobs import frames


def qpy_bytes(qc) -> bytes:
    from qiskit import qpy

    buf = io.BytesIO()
    qpy.dump(qc, buf)
    return buf.getvalue()


def link(outputs: dict[int, bytes], transport: str = "qpy") -> bytes:
    """What the harness sends for ``{test: output}``: ``H`` then ``D`` per test."""
    out = b""
    for i, data in outputs.items():
        head = json.dumps({"i": i, "transport": transport}).encode()
        out += frames.pack(b"H", head) + frames.pack(b"D", data)
    return out


def program_result(cases: int, *, ended: bool = True, files: dict[str, bytes] | None = None,
                   **entry) -> RunResult:
    """The program's job's result: a report of ``cases`` tests that went fine (``entry``
    overrides their fields) and the UME channel, ended or not."""
    report = {"load_error": None,
              "cases": [{"i": i, "status": "ok", "error": None, "transport": "qpy", **entry}
                        for i in range(cases)]}
    return RunResult(id="program", status="ok", exit_code=0,
                     files={"report.json": json.dumps(report).encode(),
                            "ume.log": b"END\n" if ended else b"", **(files or {})})


def run_check(sandbox, judge, record, code: str, sent: bytes) -> RunResult:
    """The judge's trusted check for ``code``, run on ``sent`` as what arrived on its link."""
    (check,) = judge.jobs(record, code)
    return sandbox.run_job(dataclasses.replace(check, peer=None, stdin=sent))


def session(check: RunResult, program: RunResult) -> RunResult:
    """The session's result as the stage driver hands it to ``decide``."""
    return dataclasses.replace(check, peer=program)


#: a trusted job that only receives what the harness sends (``check.receive``, as the check
#: does) and keeps it: ``received_<i>`` and ``received.json`` ({test: transport})
RECORDER = (
    "import json, sys\n"
    "from quantum_codegen_eval.judges.qcoder.check import receive\n"
    "got, broken = receive(sys.stdin.buffer, {cases}, False)\n"
    "json.dump({{i: r.transport for i, r in got.items()}}, open('received.json', 'w'))\n")


def recorded(sandbox, judge, record, codes: list[str], cases: int) -> list[RunResult]:
    """For each code, the program's job linked to :data:`RECORDER` instead of the check: the
    recorder's results (``files``: what arrived), each with the program's as its ``peer``."""
    jobs = []
    for code in codes:
        (check,) = judge.jobs(record, code)
        jobs.append(dataclasses.replace(
            check, source=RECORDER.format(cases=cases), files={},
            collect=("received.json", *(f"received_{i}" for i in range(cases)))))
    return sandbox.run_jobs(jobs)
