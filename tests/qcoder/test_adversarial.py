"""Programs written as an attacker would write them: each gets exactly the verdict it deserves.

Classes: import escapes (static layer, and the run-time layer alone with the static check
switched off), reading references/specs, forging other cases' outputs and the judge's channel,
oracle abuse (inspecting, decomposing, copying, renaming, powers), wrong circuits the old
``AnnotatedOperation`` order accepted, renamed blocks dodging UGE, vacuous outputs, and hostile
QPY / forged stage-1 results fed to the trusted stage.
"""

from __future__ import annotations

import dataclasses
import json
import re
import struct
from pathlib import Path

import pytest
from qcoder_session import link, program_result, qpy_bytes, run_check, session
from redteam import assert_verdict

import quantum_codegen_eval
from quantum_codegen_eval.execution import RunResult
from quantum_codegen_eval.judges.jobs import frames
from quantum_codegen_eval.judges.qcoder import QCoderJudge
from quantum_codegen_eval.judges.qcoder.specs import get_spec

pytestmark = pytest.mark.upstream

H = "from qiskit import QuantumCircuit\n\n"
A1 = "def solve():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    return qc\n"
KICK = get_spec("QPC003_B2").reference  # phase kickback through the oracle: 1 query
B2 = get_spec("QPC001_B2").reference
# the classic jail-break: object -> subclasses -> os._wrap_close -> os's globals
JAIL = ("def _os():\n"
        "    for c in ().__class__.__base__.__subclasses__():\n"
        "        if c.__name__ == '_wrap_close':\n"
        "            return c.__init__.__globals__\n")

STATIC = [  # (id, problem, code, status, text in message) -- decided before anything runs
    ("exec-string", "QPC001_A1", H + "exec('import os')\n" + A1, "UME", "exec"),
    ("eval-import", "QPC001_A1", H + "eval(\"__imp\" + \"ort__('os')\")\n" + A1, "UME", "eval"),
    ("importlib", "QPC001_A1", "import importlib\n" + H + A1, "UME", "import importlib"),
    ("computed-getattr", "QPC001_A1",
     H + "x = getattr(QuantumCircuit, '__in' + 'it__')\n" + A1, "UME", "computed name"),
    ("guard-globals", "QPC001_A1",
     H + "g = QuantumCircuit.__init__.__globals__\n" + A1, "UME", "__globals__"),
    ("module-through-attribute", "QPC001_A1",
     "import numpy as np\n" + H + "s = np.testing._private.utils._sys\n" + A1, "UME", "_sys"),
    ("import-the-specs", "QPC003_B6",
     "from quantum_codegen_eval.judges.qcoder.specs import get_spec\n" + H + A1, "UME",
     "quantum_codegen_eval"),
    ("dunder-getattr", "QPC001_A1", H + "b = getattr(QuantumCircuit, '__dict__')\n" + A1, "UME",
     "__dict__"),
]

RUNTIME = [  # decided by the run-time guard alone (the static check is switched off)
    ("rt-exec-string", "QPC001_A1", H + "exec('import os')\n" + A1, "UME", "of code"),
    ("rt-import-via-builtins", "QPC001_A1",
     H + A1.replace("    qc = QuantumCircuit(1)\n",
                    "    __builtins__.__import__('socket')\n    qc = QuantumCircuit(1)\n"),
     "UME", "import socket"),
    ("rt-sys-modules-importlib", "QPC001_A1",
     H + JAIL + A1.replace("    qc = QuantumCircuit(1)\n",
                           "    _os()['sys'].modules['importlib'].import_module('smtplib')\n"
                           "    qc = QuantumCircuit(1)\n"), "UME", "import smtplib"),
    ("rt-gc-walk", "QPC001_A1",
     H + JAIL + A1.replace("    qc = QuantumCircuit(1)\n",
                           "    _os()['sys'].modules['gc'].get_objects()\n"
                           "    qc = QuantumCircuit(1)\n"), "UME", "gc.get_objects"),
    ("rt-frames-to-the-guard", "QPC001_A1",
     H + A1.replace("    qc = QuantumCircuit(1)\n",
                    "    try:\n        1 / 0\n    except ZeroDivisionError as e:\n"
                    "        f = e.__traceback__.tb_frame\n    qc = QuantumCircuit(1)\n"),
     "UME", "object.__getattr__"),
    ("rt-getframe", "QPC001_A1",
     H + JAIL + A1.replace("    qc = QuantumCircuit(1)\n",
                           "    _os()['sys']._getframe(1)\n    qc = QuantumCircuit(1)\n"),
     "UME", "sys._getframe"),
    ("rt-forge-other-case", "QPC001_A2",
     H + "def solve(n):\n    open('case_%d.qpy' % (n % 9 + 1), 'wb').write(b'QISKIT')\n"
         "    qc = QuantumCircuit(n)\n    qc.h(range(n))\n    return qc\n", "UME", "for writing"),
    ("rt-silence-the-channel", "QPC001_A1",
     H + JAIL + A1.replace("    qc = QuantumCircuit(1)\n",
                           "    os = _os()\n    for fd in range(3, 64):\n"
                           "        try:\n            os['close'](fd)\n        except OSError:\n"
                           "            pass\n    try:\n        import socket\n"
                           "    except ImportError:\n        pass\n    qc = QuantumCircuit(1)\n"),
     "UME", "tampered"),
    ("rt-exit-before-the-end-marker", "QPC001_A2",  # forges nothing, leaves the run unfinished
     H + JAIL + "def solve(n):\n    qc = QuantumCircuit(n)\n    qc.h(range(n))\n"
     "    if n == 3:\n        _os()['_exit'](0)\n    return qc\n", "RE", "end marker"),
    ("rt-swallowed-refusal", "QPC001_A1",
     H + "try:\n    import scipy.linalg as la\n    from subprocess import run\nexcept ImportError:\n"
         "    pass\n" + A1, "UME", "from subprocess import run"),
]

PROGRAMS = [  # oracle abuse, UGE dodges, old-bug circuits, vacuous outputs (static check on)
    ("read-oracle-definition", "QPC003_B6",  # the old oracle's definition spelled out L
     H + "def solve(n, o):\n    qc = QuantumCircuit(n)\n    d = o.data[0].operation.definition\n"
         "    xs = [i.qubits for i in d.data if i.operation.name == 'x']\n"
         "    if d.data:\n        L = sum(1 << q for q in range(n)\n"
         "                if all(d.find_bit(x[0]).index != q for x in xs))\n"
         "        for q in range(n):\n            if (L >> q) & 1:\n                qc.x(q)\n"
         "        return qc\n    qc.h(range(n))\n    return qc\n", "WA", "probability"),
    # the decomposition reveals nothing (it holds the oracle gate again, see oracles) and using
    # it is using the oracle: a counted query, AC here (until 2026-12-03 the placeholder: WA)
    ("decompose-the-oracle", "QPC003_B2", KICK.replace("qc.compose(o, inplace=True)",
                                                       "qc.compose(o.decompose(), inplace=True)"),
     "AC", ""),
    ("copy-the-oracle-by-name", "QPC003_Ex1",
     "from qiskit import QuantumCircuit\nfrom qiskit.circuit.library.standard_gates import XGate\n\n"
     "def solve(n, o):\n    g = o.data[0].operation\n    twin = g.copy()\n"
     "    qc = QuantumCircuit(n + 1)\n    qc.x(n)\n    qc.h(n)\n    qc.append(twin, range(n + 1))\n"
     "    qc.append(twin.inverse(), range(n + 1))\n    qc.append(g, range(n + 1))\n"
     "    qc.h(n)\n    qc.x(n)\n    return qc\n", "DLE", "3 applications"),
    ("oracle-power", "QPC003_Ex1",
     KICK.replace("qc.compose(o, inplace=True)",
                  "qc.append(o.to_gate().power(3, annotated=True), range(n + 1))"),
     "DLE", "3 applications"),
    ("oracle-inside-controlled-box", "QPC003_Ex1",
     KICK.replace("qc.compose(o, inplace=True)",
                  "box = QuantumCircuit(n + 1)\n    box.compose(o, inplace=True)\n"
                  "    box.compose(o, inplace=True)\n    box.compose(o, inplace=True)\n"
                  "    qc.append(box.to_gate(), range(n + 1))"),
     "DLE", "3 applications"),
    ("imitate-the-oracle-name", "QPC003_B2",  # a gate called like the documented oracle
     "from qiskit import QuantumCircuit\n\n"
     "def solve(n, o):\n    fake = QuantumCircuit(n + 1, name='qcoder_oracle')\n"
     "    fake_gate = fake.to_gate()\n    qc = QuantumCircuit(n + 1)\n    qc.x(n)\n    qc.h(n)\n"
     "    qc.append(fake_gate, range(n + 1))\n    qc.h(n)\n    qc.x(n)\n    return qc\n",
     "WA", "fidelity"),
    ("old-annotated-order-bug", "QPC001_B2",  # two gates that cancel only under reversed modifiers
     B2.replace("    return qc\n",
                "    if n >= 2:\n"
                "        from qiskit.circuit.library.standard_gates import XGate\n"
                "        qc.append(XGate().control(2, ctrl_state=1, annotated=False), [0, 1, n])\n"
                "        sub = QuantumCircuit(1)\n        sub.x(0)\n"
                "        qc.append(sub.to_gate().control(1, ctrl_state=1, annotated=True)"
                ".control(1, ctrl_state=0, annotated=True), [0, 1, n])\n    return qc\n"),
     "WA", "fidelity"),
    ("renamed-unitary", "QPC001_A1",
     H + "def solve():\n    qc = QuantumCircuit(1)\n    s = 2 ** -0.5\n"
         "    qc.unitary([[s, s], [s, -s]], [0])\n    qc.data[0].operation.name = 'h'\n    return qc\n",
     "UGE", "UnitaryGate"),
    ("fake-h-gate", "QPC001_A1",
     H + "def solve():\n    sub = QuantumCircuit(1, name='h')\n    sub.x(0)\n"
         "    qc = QuantumCircuit(1)\n    qc.append(sub.to_gate(), [0])\n    return qc\n",
     "WA", "fidelity"),
    ("renamed-swap", "QPC002_B3",
     "from qiskit import QuantumCircuit\nfrom qiskit.circuit.library.standard_gates import SwapGate\n\n"
     "def solve():\n    g = SwapGate().to_mutable()\n    g.name = 'cx'\n    qc = QuantumCircuit(2)\n"
     "    qc.append(g, [0, 1])\n    return qc\n", "UGE", "SwapGate"),
    ("empty-circuit", "QPC001_A2", H + "def solve(n):\n    return QuantumCircuit(n)\n", "WA",
     "fidelity"),
    ("wrong-width", "QPC001_A2", H + "def solve(n):\n    qc = QuantumCircuit(n + 1)\n"
     "    qc.h(range(n + 1))\n    return qc\n", "QLE", "qubits"),
    ("returns-none", "QPC001_A2", "def solve(n):\n    return None\n", "RE", "NoneType"),
    ("exit-early", "QPC001_A2", H + "def solve(n):\n    raise SystemExit(0)\n", "RE", "SystemExit"),
]


def _judge(qsandbox, records, judge, items):
    from quantum_codegen_eval.judges.base import judge_many

    return judge_many(judge, [(records[p], c) for p, c in items], qsandbox)


@pytest.fixture(scope="module")
def verdicts(qsandbox, qcoder_records, verdict_table):
    return verdict_table(qsandbox, qcoder_records, STATIC + PROGRAMS, RUNTIME)


@pytest.mark.parametrize("case", STATIC + RUNTIME + PROGRAMS, ids=lambda c: c[0])
def test_exact_verdict(verdicts, case):
    name, _pid, _code, status, text = case
    assert_verdict(verdicts[name], status, text, name=name)


# --------------------------------------------------------------- forged program results


def _hostile(kind: str) -> bytes:
    """A QPY file for QPC001_A1 (1 qubit) whose header lies."""
    from qiskit import QuantumCircuit
    from qiskit.qpy import formats

    good = bytearray(qpy_bytes(QuantumCircuit(1)))
    fh = formats.FILE_HEADER_V10_SIZE
    (offset,) = struct.unpack("!Q", good[fh + 1:fh + 9])
    # CIRCUIT_HEADER_V12: name_size H, gp type c, gp size H, num_qubits I, num_clbits I,
    # metadata_size Q, num_registers I, num_instructions Q, num_vars I
    if kind == "million-qubits":
        struct.pack_into("!I", good, offset + 5, 5_000_000)
    elif kind == "huge-instruction-count":
        struct.pack_into("!Q", good, offset + 5 + 4 + 4 + 8 + 4, 1 << 40)
    elif kind == "huge-metadata":
        struct.pack_into("!Q", good, offset + 5 + 4 + 4, 1 << 50)
    elif kind == "many-programs":
        struct.pack_into("!Q", good, 10, 1 << 32)
    elif kind == "truncated":
        return bytes(good[:25])
    elif kind == "garbage":
        return b"QISKIT" + bytes(range(256)) * 4
    return bytes(good)


@pytest.mark.parametrize("kind,status,text", [
    ("million-qubits", "QLE", "5000000 qubits"),
    ("huge-instruction-count", "RE", "claims more"),
    ("huge-metadata", "RE", "claims more"),
    ("many-programs", "RE", "circuits, not 1"),
    ("truncated", "RE", "truncated"),
    ("garbage", "RE", "QPY"),
])
def test_hostile_qpy_is_a_verdict_not_a_crash(qsandbox, qcoder_records, kind, status, text):
    """QPY that lies (as if the program had sent it): the evaluator never sees it; the
    memory-limited trusted check refuses it from the header."""
    rec = qcoder_records["QPC001_A1"]
    judge = QCoderJudge()
    check = run_check(qsandbox, judge, rec, A1, link({0: _hostile(kind)}))
    v = judge.decide(rec, A1, [session(check, program_result(1))])
    assert v.status == status, (v.status, v.message)
    assert text in v.message, v.message


def test_forged_report_without_end_marker_or_with_violations(qsandbox, qcoder_records):
    from qiskit import QuantumCircuit

    rec = qcoder_records["QPC001_A1"]
    qc = QuantumCircuit(1)
    qc.h(0)
    judge = QCoderJudge()
    check = run_check(qsandbox, judge, rec, A1, link({0: qpy_bytes(qc)}))
    v = judge.decide(rec, A1, [session(check, program_result(1, ended=False))])
    assert v.status == "RE" and "end marker" in v.tests[0].message
    forged = program_result(1, files={"ume.log": b"END\nUME import os\nEND\n"})
    # lines the program adds only hurt it
    assert judge.decide(rec, A1, [session(check, forged)]).status == "UME"


def test_report_claiming_success_without_output(qsandbox, qcoder_records):
    """The report says the test went fine; nothing reached the check."""
    rec = qcoder_records["QPC001_A1"]
    judge = QCoderJudge()
    check = run_check(qsandbox, judge, rec, A1, b"")
    v = judge.decide(rec, A1, [session(check, program_result(1))])
    assert v.status == "RE" and "did not reach" in v.message and not v.judge_error, v.message


@pytest.mark.parametrize("sent,why", [
    (b"garbage on the link", "unexpected frame kind"),
    (frames.pack(b"H", b'{"i": 0, "transport": "skeleton"}') + frames.pack(b"D", b"{}"),
     "unknown transport"),
    (frames.pack(b"H", b'{"i": true, "transport": "qpy"}'), "test header for test True"),
    (link({0: b"QISKIT"}) + link({0: b"QISKIT"}), "test header for test 0"),
    (frames.pack(b"H", b" " * 300), "a frame of 300 bytes"),
], ids=["garbage", "unknown-transport", "bool-index", "twice", "oversized-header"])
def test_a_frame_the_harness_never_sends_is_the_programs_re(qsandbox, qcoder_records, sent, why):
    """Frames the program wrote on the link itself: the check decodes them with exact types and
    stops; as for the UME channel, interfering never helps: the sample is the program's RE,
    whatever reached the check before (here a correct circuit for test 0: the first of two)."""
    from qiskit import QuantumCircuit

    rec = qcoder_records["QPC001_A1"]
    judge = QCoderJudge()
    good = QuantumCircuit(1)
    good.h(0)
    check = run_check(qsandbox, judge, rec, A1, link({0: qpy_bytes(good)}) + sent)
    v = judge.decide(rec, A1, [session(check, program_result(1))])
    assert v.status == "RE" and not v.judge_error, (v.status, v.message)
    assert "wrote on the judge's link" in v.message and why in v.message, v.message


@pytest.mark.parametrize("sent,why", [
    (frames.pack(b"H", b'{"i": 0, "transport": "qpy"}'), "without its output"),
    (frames.pack(b"H", b'{"i": 0, "transport": "qpy"}') + frames.HEADER.pack(b"D", 1 << 20)
     + b"x" * 100, "truncated frame payload"),
    (frames.HEADER.pack(b"H", 40) + b'{"i": 0, ', "truncated frame payload"),
], ids=["no-output", "cut-short", "cut-short-header"])
def test_a_link_cut_short_is_the_tests_re(qsandbox, qcoder_records, sent, why):
    """The program's job ended in the middle of a test's frames (killed at its limits): that
    test's output did not reach the check, the program's RE for it, never a judge error."""
    rec = qcoder_records["QPC001_A1"]
    judge = QCoderJudge()
    check = run_check(qsandbox, judge, rec, A1, sent)
    v = judge.decide(rec, A1, [session(check, program_result(1))])
    assert v.status == "RE" and not v.judge_error, (v.status, v.message)
    assert "did not reach" in v.message and why in v.message, v.message


def test_trusted_stage_output_is_validated(qcoder_records):
    """A check.jsonl line with an unknown status is ignored: the test's output did not reach
    the check as far as the evaluator can tell (the program's RE, never AC)."""
    rec = qcoder_records["QPC001_A1"]
    judge = QCoderJudge()
    check = RunResult(id="c", status="ok", files={"check.jsonl": b'{"i": 0, "status": "OK!"}\n'})
    v = judge.decide(rec, A1, [session(check, program_result(1))])
    assert v.status == "RE", (v.status, v.message)


# --------------------------------------------------------------- references out of reach


def test_reading_the_references_from_the_sandbox_gives_nothing(qsandbox, qcoder_records):
    """A completion that reads the installed reference of its problem and replays its gates.
    With the package hidden from untrusted jobs it gets nothing (WA); the judge's own job (the
    harness) never imports the specs either."""
    spec_file = Path(quantum_codegen_eval.__file__).parent / "judges/qcoder/specs/qpc001.py"
    code = H + f"""
def solve():
    qc = QuantumCircuit(1)
    try:
        text = open({str(spec_file)!r}).read()
    except OSError:
        return qc
    ref = text.split('"QPC001_A1"', 1)[1].split('def solve():', 1)[1].split('return qc', 1)[0]
    for line in ref.split('\\\\n'):
        line = line.strip()
        if line.startswith('qc.') and line.endswith('(0)'):
            {{'h': qc.h, 'x': qc.x}}[line[3:-3]](0)
    return qc
"""
    (v,) = _judge(qsandbox, qcoder_records, QCoderJudge(), [("QPC001_A1", code)])
    assert v.status == "WA", (v.status, v.message)


# --------------------------------------------------------------- what the sandbox is given


def test_untrusted_stage_gets_no_hidden_value(qcoder_records):
    """For every problem: the untrusted job's files hold the case arguments and the oracles'
    public descriptions only; its preload names no module of this package; failing-case names
    in verdicts show public arguments only."""
    from quantum_codegen_eval.judges.qcoder.specs import all_specs

    judge = QCoderJudge()
    jobs = "quantum_codegen_eval.judges.qcoder.jobs"
    ours = {f"{jobs}.harness", f"{jobs}.circuit_tree", "quantum_codegen_eval.judges.jobs.memory",
            "quantum_codegen_eval.judges.jobs.frames"}
    for pid, spec in all_specs().items():
        (check_job,) = judge.jobs(qcoder_records[pid], spec.reference)
        job = check_job.peer  # the program's job
        assert check_job.trusted
        assert not job.trusted and not any("quantum_codegen_eval" in m for m in job.preload)
        # the harness's own job modules, registered under their names; nothing else of ours
        assert set(re.findall(r"quantum_codegen_eval(?:\.\w+)*", job.source)) == ours
        cfg = json.loads(job.files["qcoder_cases.json"])
        for case, full in zip(cfg["cases"], judge.cases(qcoder_records[pid]), strict=True):
            assert set(case["args"]) <= set(spec.args), pid
            assert not any(k.startswith("_") for k in case["args"]), pid
            for desc in case["oracles"].values():
                assert set(desc) == {"arg", "gate", "qubits", "params", "factory"}, pid
            hidden = [k for k in full["args"] if k.startswith("_")]
            assert not any(k.lstrip("_") + "=" in spec.case_name(full) for k in hidden), pid
        assert set(job.files) == {"candidate.py", "qcoder_cases.json"}


def test_mutated_qpy_never_crashes_the_judge(qsandbox, qcoder_records):
    """Random byte flips in real QPY files (as a program that bypassed the harness could write):
    every outcome is a verdict decided in the trusted stage; the evaluator parses no QPY."""
    import random

    from qiskit import QuantumCircuit

    from quantum_codegen_eval.verdict import STATUSES

    rec = qcoder_records["QPC001_A2"]
    judge = QCoderJudge()
    rng = random.Random(7)
    sent = []
    for _ in range(3):
        outputs = {}
        for i in range(10):
            qc = QuantumCircuit(i + 1)
            qc.h(range(i + 1))
            data = bytearray(qpy_bytes(qc))
            for _ in range(rng.randint(1, 6)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            outputs[i] = bytes(data)
        sent.append(link(outputs))
    (check,) = judge.jobs(rec, A1)
    checks = qsandbox.run_jobs([dataclasses.replace(check, peer=None, stdin=s) for s in sent])
    for c in checks:
        v = judge.decide(rec, A1, [session(c, program_result(10))])
        # a flip the header check catches, or one past the header that Qiskit's reader chokes
        # on (the harness read its file back, so the program changed it), is the program's RE
        assert v.status in STATUSES, (v.status, v.message)


def test_a_failing_trusted_stage_is_a_judge_error(qsandbox, qcoder_records):
    """The trusted check dies for a reason of its own (here: far too little memory to start):
    a judge error, never the program's RE and never AC."""
    from qiskit import QuantumCircuit

    rec = qcoder_records["QPC001_A1"]
    judge = QCoderJudge(check_memory_mb=64)
    qc = QuantumCircuit(1)
    qc.h(0)
    check = run_check(qsandbox, judge, rec, A1, link({0: qpy_bytes(qc)}))
    v = judge.decide(rec, A1, [session(check, program_result(1))])
    assert v.status == "RE" and v.details.get("judge_error"), (v.status, v.message)


READS_THE_LINK_BACK = H + ("def solve():\n    back = open(0, 'rb').read()\n"
                           "    qc = QuantumCircuit(1)\n    qc.h(0)\n    if back:\n"
                           "        qc.x(0)\n    return qc\n")


def test_the_link_back_from_the_check_carries_nothing(qsandbox, qcoder_records):
    """The program's stdin is the check's stdout: the check closes it first thing, so the
    program reads end-of-file at once (nothing of the hidden side, and no wait for the check,
    which waits for the program: a read that blocked was a TLE)."""
    from quantum_codegen_eval.judges.base import judge_many

    (v,) = judge_many(QCoderJudge(timeout=20), [(qcoder_records["QPC001_A1"],
                                                 READS_THE_LINK_BACK)], qsandbox)
    assert v.status == "AC", (v.status, v.message)
