"""The evidence of a refusal survives whatever happens to the channel file: each refusal is
also written to the job's stderr, a pipe whose other end the sandbox holds (a program can add
lines there, never take one back). And a classical answer is read as the exact built-in value it
holds, without running any method of the program's (its dunders could be library callables
that run in the harness with no frame of the program on the stack)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from quantum_codegen_eval.judges.qcoder import QCoderJudge
from quantum_codegen_eval.judges.qcoder import judge as judge_mod
from quantum_codegen_eval.judges.qcoder.jobs import harness

pytestmark = pytest.mark.upstream

SWALLOWED = ("from qiskit import QuantumCircuit\n\n\ndef solve():\n    try:\n"
             "        import smtplib\n    except ImportError:\n        pass\n"
             "    qc = QuantumCircuit(1)\n    qc.x(0)\n    return qc\n")


def _stages(judge, rec, code, sandbox, tamper=None):
    """The verdict and the program's job's result (``tamper``-ed, as the program could have
    left it, before the judge reads it)."""
    (job,) = judge.jobs(rec, code)
    r = sandbox.run_job(job)
    program = r.peer if tamper is None else tamper(r.peer)
    return judge.decide(rec, code, [replace(r, peer=program)]), program


def test_a_refusal_survives_an_erased_channel(qsandbox, qcoder_records, monkeypatch):
    monkeypatch.setattr(judge_mod, "static_imports", lambda code, allowed: [])
    rec, judge = qcoder_records["QPC001_A1"], QCoderJudge()

    def erase(r):  # what a planted library callable did to the file: only END is left
        return replace(r, files={**r.files, harness.CHANNEL: b"END\n"})

    v, program = _stages(judge, rec, SWALLOWED, qsandbox, tamper=erase)
    assert harness.STDERR_UME + "import smtplib" in program.stderr
    assert v.status == "UME" and "smtplib" in v.message, (v.status, v.message)
    # the same program without the stderr evidence would have passed: the file was its only
    # record before (the check is on the judge's reading, not on a lucky run)
    wiped = replace(program, stderr="", files={**program.files, harness.CHANNEL: b"END\n"})
    assert judge_mod._channel(wiped.files[harness.CHANNEL], wiped.stderr)["violations"] == []
    assert judge_mod._channel(b"END\n", program.stderr)["violations"] == ["import smtplib"]


CLASSICAL_LIAR = (
    "class Answer(int):\n    def __repr__(self):\n        return str(self.right)\n"
    "    __str__ = __repr__\n    def __int__(self):\n        return self.right\n"
    "    __index__ = __int__\n\n\n"
    "def solve(a, L):\n    x = Answer(0)\n    x.right = pow(a, -1, L)\n    return x\n")
CLASSICAL_LIST = (
    "class Answer(list):\n    def __iter__(self):\n        return iter(self.right)\n\n\n"
    "def solve(n, a, L):\n    x = Answer([0] * n)\n    x.right, y = [], a % L\n"
    "    for _ in range(n):\n        x.right.append(y)\n        y = y * y % L\n    return x\n")


def test_a_classical_answer_is_its_content(qsandbox, qcoder_records, judge_many):
    liar, lst = judge_many(qsandbox, QCoderJudge(), [
        (qcoder_records["QPC004_C2"], CLASSICAL_LIAR), (qcoder_records["QPC004_C1"], CLASSICAL_LIST)])
    assert liar.status == "WA", (liar.status, liar.message)
    assert lst.status == "WA", (lst.status, lst.message)


BIG_ANSWER = ("def solve(a, L):\n    return pow(a, -1, L) + L * 10 ** 6000\n")


def test_a_valid_answer_past_pythons_str_limit(qsandbox, qcoder_records, judge_many):
    """Any x with a*x = 1 (mod L) is accepted; one of 6000 digits is past Python's 4300-digit
    str() cap, which JSON's decimal integers hit: it crosses in hexadecimal, never RE."""
    (v,) = judge_many(qsandbox, QCoderJudge(), [(qcoder_records["QPC004_C2"], BIG_ANSWER)])
    assert v.status == "AC", (v.status, v.message)
