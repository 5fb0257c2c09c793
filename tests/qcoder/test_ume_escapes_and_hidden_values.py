"""Red-team programs beyond ``test_adversarial.py``: each gets the verdict an honest judge gives.

Classes: hidden test values precomputed from the public code (the seed is public), UME escapes
through aliased builtins and through modules that permitted packages import (``from
numpy.<private> import os``, ``operator.attrgetter``, ``import_module``, ``timeit``), circuits that
make Qiskit's QPY reader fail (must be the program's RE, never a judge error), lying circuit
subclasses and patched classes, vacuous circuits, output floods, oversized and unbound circuits,
and ordinary Python features that must stay allowed (decorators, classes, recursion).
"""

from __future__ import annotations

import random

import pytest
from redteam import assert_verdict

from quantum_codegen_eval.judges.qcoder import QCoderJudge, check
from quantum_codegen_eval.judges.qcoder.specs import get_spec

pytestmark = pytest.mark.upstream

H = "from qiskit import QuantumCircuit\n\n"
A1 = "def solve():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    return qc\n"
A1_X = "def solve():\n    qc = QuantumCircuit(1)\n    qc.x(0)\n    return qc\n"


def _public_draw(pid: str) -> list[dict]:
    """What an attacker computes offline from this package's public code and default seed."""
    return [c["args"] for c in get_spec(pid).sample(random.Random(f"0:{pid}"))]


def _precomputed_marked_item(pid: str, extra: int = 0) -> str:
    table = [c["_L"] for c in _public_draw(pid)]
    return H + (f"_LS = {table!r}\n_calls = [0]\n\n\ndef solve(n, o):\n"
                f"    L = _LS[_calls[0]]\n    _calls[0] += 1\n    qc = QuantumCircuit(n + {extra})\n"
                "    for q in range(n):\n        if (L >> q) & 1:\n            qc.x(q)\n    return qc\n")


def _precomputed_function(pid: str) -> str:
    """QPC003_B2: the phase oracle (-1)^f(x) built from a precomputed table of f."""
    table = [c["_f"] for c in _public_draw(pid)]
    return H + (f"_FS = {table!r}\n_calls = [0]\n\n\ndef solve(n, o):\n"
                "    f = _FS[_calls[0]]\n    _calls[0] += 1\n    qc = QuantumCircuit(n + 1)\n"
                "    for x, v in enumerate(f):\n        if v:\n"
                "            for q in range(n):\n                if not (x >> q) & 1:\n"
                "                    qc.x(q)\n"
                "            if n == 1:\n                qc.z(0)\n"
                "            else:\n                qc.h(n - 1)\n"
                "                qc.mcx(list(range(n - 1)), n - 1)\n                qc.h(n - 1)\n"
                "            for q in range(n):\n                if not (x >> q) & 1:\n"
                "                    qc.x(q)\n    return qc\n")


def _with(body: str, solve: str = A1) -> str:
    return solve.replace("    qc = QuantumCircuit(1)\n", body + "    qc = QuantumCircuit(1)\n", 1)


# the classic jail-break, spelled with an aliased getattr (no literal dunder attribute)
ALIASED_GETATTR = H + _with(
    "    ga = getattr\n    base = ga(ga((), '__cla' + 'ss__'), '__ba' + 'se__')\n"
    "    for c in ga(base, '__subcla' + 'sses__')():\n"
    "        if c.__name__ == '_wrap_close':\n"
    "            os = ga(ga(c, '__init__'), '__glo' + 'bals__')\n"
    "            os['getcwd']()\n")

STATIC = [  # (id, problem, code, status, text in message): the static layer must say UME
    ("aliased-getattr", "QPC001_A1", ALIASED_GETATTR, "UME", "getattr"),
    ("getattr-through-map", "QPC001_A1",
     H + _with("    f = list(map(getattr, [QuantumCircuit.__init__], ['__glo' + 'bals__']))[0]\n"),
     "UME", "getattr"),
    ("from-numpy-internals-import-os", "QPC001_A1",
     "from numpy.testing._private.utils import os\n" + H + _with("    os.getcwd()\n"),
     "UME", "os"),
    ("from-scipy-import-import_module", "QPC001_A1",
     "from scipy._lib.deprecation import import_module\n" + H
     + _with("    import_module('os').getcwd()\n"), "UME", "import_module"),
    ("import_module-through-attribute", "QPC001_A1",
     "import scipy._lib.deprecation as d\n" + H + _with("    d.import_module('os').getcwd()\n"),
     "UME", "import_module"),
    ("attrgetter-through-numpy-ma", "QPC001_A1",
     "import numpy as np\n" + H
     + _with("    g = np.ma.core.operator.attrgetter('__init__.__glo' + 'bals__')(QuantumCircuit)\n"),
     "UME", "operator"),
    ("timeit-as-eval", "QPC001_A1",
     "import scipy.signal._signaltools as st\n" + H
     + _with("    st.timeit.Timer('import os; os.getcwd()').timeit(1)\n"), "UME", "timeit"),
    ("pydoc-locate", "QPC001_A1",
     "import scipy._lib._docscrape as ds\n" + H + _with("    ds.pydoc.locate('os').getcwd()\n"),
     "UME", "pydoc"),
    ("match-class-pattern-jailbreak", "QPC001_A1", H + (  # attributes read by a class pattern
        "def solve():\n    match ():\n        case object(__class__=t):\n            pass\n"
        "    match t:\n        case object(__base__=base):\n            pass\n"
        "    match base:\n        case object(__subclasses__=subs):\n            pass\n"
        "    for c in subs():\n        if c.__name__ == '_wrap_close':\n"
        "            match c.__init__:\n                case object(__globals__=g):\n"
        "                    g['getcwd']()\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    return qc\n"),
     "UME", "__globals__"),
    ("patch-the-harness-json", "QPC001_A1",  # forges report.json through numpy's json module
     "import numpy.testing._private.utils as u\n" + H
     + "def _forge(obj, fh, *a, **k):\n    fh.write('{\"load_error\": null, \"cases\": 5}')\n\n\n"
     + _with("    u.json.dump = _forge\n", A1_X), "UME", "json"),
]

RUNTIME = [  # the same escapes with the static check switched off: the run-time guard alone
    ("rt-patch-the-harness-json", "QPC001_A1",  # the evaluator must not crash on the forgery
     "import numpy.testing._private.utils as u\n" + H
     + "def _forge(obj, fh, *a, **k):\n    fh.write('{\"load_error\": null, \"cases\": 5}')\n\n\n"
     + _with("    u.json.dump = _forge\n", A1_X), "RE", "not run"),
    ("rt-from-numpy-internals-import-os", "QPC001_A1",
     "from numpy.testing._private.utils import os\n" + H + _with("    os.getcwd()\n"),
     "UME", "os"),
    ("rt-from-scipy-import-import_module", "QPC001_A1",
     "from scipy._lib.deprecation import import_module\n" + H
     + _with("    import_module('os').getcwd()\n"), "UME", "import_module"),
]

PROGRAMS = [  # judged on the circuit they return (static check on)
    ("precomputed-marked-item", "QPC003_B6", _precomputed_marked_item("QPC003_B6"), "WA",
     "probability"),
    ("precomputed-marked-item-B8", "QPC003_B8", _precomputed_marked_item("QPC003_B8", 1), "WA",
     "probability"),
    ("precomputed-oracle-function", "QPC003_B2", _precomputed_function("QPC003_B2"), "WA",
     "fidelity"),
    ("nested-past-qpy-recursion", "QPC001_A1",  # an X gate 150 definitions deep
     H + "def solve():\n    g = QuantumCircuit(1)\n    g.x(0)\n    for _ in range(150):\n"
         "        h = QuantumCircuit(1)\n        h.append(g.to_gate(), [0])\n        g = h\n"
         "    return g\n", "RE", ""),
    ("subclass-lying-len", "QPC001_A1",
     H + "class C(QuantumCircuit):\n    def __len__(self):\n        return 5\n\n"
         "    def depth(self, *a, **k):\n        return 0\n\n\n" + A1_X.replace("QuantumCircuit(1)", "C(1)"),
     "WA", "fidelity"),
    ("patched-class-after-load", "QPC001_A1",
     H + "def solve():\n    qc = QuantumCircuit(1)\n    qc.x(0)\n"
         "    QuantumCircuit.__len__ = lambda self: 0\n    return qc\n", "WA", "fidelity"),
    ("print-a-forged-verdict", "QPC001_A1",
     H + "def solve():\n    print('AC')\n    print('{\"i\": 0, \"status\": \"AC\"}')\n"
         "    print('END')\n    return QuantumCircuit(1)\n", "WA", "fidelity"),
    # the program's stdout goes nowhere (the harness's is the link to the check): what it
    # prints decides nothing, however much (until 2026-12-07 a flood was RE: the sandbox's
    # output limit, a limit of ours charged to the program)
    ("stdout-flood", "QPC001_A1",
     H + "def solve():\n    print('AC ' * 10 ** 6)\n    qc = QuantumCircuit(1)\n    qc.h(0)\n"
         "    return qc\n", "AC", ""),
    ("global-phase-only", "QPC001_A1",
     H + "import math\n\ndef solve():\n    qc = QuantumCircuit(1)\n    qc.global_phase = math.pi / 4\n"
         "    return qc\n", "WA", "fidelity"),
    ("empty-unitary", "QPC001_B2", H + "def solve(n):\n    return QuantumCircuit(n + 1)\n", "WA",
     "fidelity"),
    ("deep-recursion", "QPC001_A1",
     H + "def f(k):\n    return f(k + 1)\n\n\ndef solve():\n    f(0)\n", "RE", "RecursionError"),
    ("returns-a-class-not-an-instance", "QPC001_A1",
     H + "def solve():\n    return QuantumCircuit\n", "RE", "not a QuantumCircuit"),
    # the circuit goes on the link the harness opened before the load: a program that uses up
    # its descriptors still returned the right circuit (RE until 2026-12-07, when the harness
    # had to open a file for it)
    ("exhaust-file-descriptors", "QPC001_A1",
     H + "_keep = []\n\n\ndef solve():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    try:\n"
         "        while True:\n            _keep.append(open('/dev/null'))\n"
         "    except OSError:\n        pass\n    return qc\n", "AC", ""),
    # ordinary Python that must stay allowed (no false UME)
    ("scipy-submodules-named-like-system-modules", "QPC001_A1",
     "from scipy import signal, io\n" + H + A1, "AC", ""),
    ("decorators-classes-metaclass-recursion", "QPC001_A2",
     H + "def twice(f):\n    def g(*a):\n        return f(*a)\n    return g\n\n\n"
         "class Meta(type):\n    pass\n\n\nclass Base(metaclass=Meta):\n"
         "    def __init_subclass__(cls, **kw):\n        cls.tag = 'h'\n\n\nclass Hs(Base):\n    def apply(self, qc, q):\n"
         "        if q < 0:\n            return qc\n        qc.h(q)\n        return self.apply(qc, q - 1)\n\n\n"
         "@twice\ndef solve(n):\n    return Hs().apply(QuantumCircuit(n), n - 1)\n", "AC", ""),
]


@pytest.fixture(scope="module")
def verdicts(qsandbox, qcoder_records, verdict_table):
    return verdict_table(qsandbox, qcoder_records, STATIC + PROGRAMS, RUNTIME)


@pytest.mark.parametrize("case", STATIC + RUNTIME + PROGRAMS, ids=lambda c: c[0])
def test_exact_verdict(verdicts, case):
    name, _pid, _code, status, text = case
    assert_verdict(verdicts[name], status, text, name=name)


def test_hidden_values_differ_between_judges_public_arguments_do_not(qcoder_records):
    """Hidden values come from the seed and the judge's secret; public arguments from the seed."""
    a, b = QCoderJudge(), QCoderJudge()
    rec = qcoder_records["QPC003_B6"]
    ca, cb = a.cases(rec), b.cases(rec)
    assert [c["args"]["n"] for c in ca] == [c["args"]["n"] for c in cb]
    assert [c["args"]["_L"] for c in ca] != [c["args"]["_L"] for c in cb]
    same = QCoderJudge(secret="fixed"), QCoderJudge(secret="fixed")
    assert same[0].cases(rec) == same[1].cases(rec)
    (check_job,) = a.jobs(rec, get_spec("QPC003_B6").reference)
    job = check_job.peer  # the program's job: the secret is the trusted check's only
    assert a.secret not in job.files["qcoder_cases.json"] and a.secret not in job.source
    assert check_job.trusted and not job.trusted


def test_oversized_outputs_are_a_judge_limit_and_stay_bounded(qsandbox, qcoder_records,
                                                              monkeypatch):
    """QPC001_C1 has 42 tests: a circuit of 400 gates with 60 000-character names is ~48 MB of
    QPY (~2 GB held by the evaluator before the check took the circuits on the link). The
    evaluator now holds none of it; the check keeps 24 MB per test here (so the QPY goes as
    the tree) and 30 MB in all, and counts the rest. The limit is the judge's, established by
    the check from what it received: past it a test is a judge limit, never AC; the program's
    failures on other tests decide."""
    code = H + ("_C = []\n\n\n"
                "def solve(n, L):\n    if not _C:\n        qc = QuantumCircuit(n)\n"
                "        for i in range(400):\n"
                "            g = QuantumCircuit(1, name='g%d' % i + 'x' * 60000).to_gate()\n"
                "            qc.append(g, [0])\n"
                "        _C.append(qc)\n    qc = _C[0]\n"
                "    return qc if qc.num_qubits == n else QuantumCircuit(n)\n")
    monkeypatch.setattr(check, "MAX_CASE_BYTES", 24 << 20)
    monkeypatch.setattr(check, "MAX_KEPT_BYTES", 30 << 20)
    rec = qcoder_records["QPC001_C1"]
    judge = QCoderJudge()
    (job,) = judge.jobs(rec, code)
    (r,) = qsandbox.run_jobs([job])
    held = sum(len(v) for v in r.files.values()) + sum(len(v) for v in r.peer.files.values())
    assert held <= 4 << 20, held
    v = judge.decide(rec, code, [r])
    # the tests with n = 1 get the hostile circuit: over the limit, judge limits; the others
    # get an empty circuit, a wrong answer, which decides the verdict
    assert v.status == "WA" and not v.judge_error, (v.status, v.message)
    over = [t.message for t in v.tests if t.message.startswith("judge limit")]
    assert over and all("received and counted" in m for m in over), [t.message for t in v.tests]


def test_decide_never_raises_on_forged_program_files(qcoder_records):
    """Whatever report.json / ume.log hold (the program may have patched the modules the harness
    writes them with), with whatever the check reported, decide() returns a verdict, never
    raises."""
    import json as _json

    from quantum_codegen_eval.execution import RunResult
    from quantum_codegen_eval.verdict import Verdict

    rng = random.Random(3)
    atoms = [None, True, 0, -1, 1, 2 ** 70, 1.5, float("nan"), "", "ok", "json", "qpy", [], {},
             [1], {"i": 0}]

    def value(depth=0):
        k = rng.random()
        if depth > 2 or k < 0.5:
            return rng.choice(atoms)
        if k < 0.75:
            return [value(depth + 1) for _ in range(rng.randint(0, 3))]
        keys = ["i", "status", "error", "transport", "cases", "load_error", "seconds"]
        return {rng.choice(keys): value(depth + 1) for _ in range(rng.randint(0, 4))}

    judge = QCoderJudge()
    for pid in ("QPC001_A1", "QPC001_A2", "QPC004_C2"):
        rec = qcoder_records[pid]
        for _ in range(300):
            report = {"load_error": value(), "cases": value()}
            if rng.random() < 0.5:
                report["cases"] = [{"i": rng.choice([0, 1, True, "0", None]), "status":
                                    rng.choice(["ok", "RE", None, 1]), "transport": value(),
                                    "error": value()} for _ in range(rng.randint(0, 3))]
            files = {"report.json": _json.dumps(report).encode(),
                     "ume.log": rng.choice([b"", b"END\n", b"UME x\nEND\n", b"\xff\xfe", b"END"])}
            r = RunResult(id="x", status=rng.choice(["ok", "error", "timeout", "memory"]),
                          exit_code=rng.choice([0, 1, 86, None]), files=files)
            lines = [{"i": rng.choice([0, 1, True, "0"]), "started": True},
                     {"i": rng.choice([0, 1]), "status": rng.choice(["AC", "WA", "OK!", None]),
                      "judge_error": value(), "fidelity": value(), "credit": value()},
                     {"protocol": value()}]
            check = RunResult(id="c", status=rng.choice(["ok", "error", "memory"]), files={
                "check.jsonl": "".join(_json.dumps(rng.choice(lines)) + "\n"
                                       for _ in range(rng.randint(0, 3))).encode()}, peer=r)
            out = judge.decide(rec, "x", [check])
            assert isinstance(out, Verdict)


def test_sampled_inputs_are_not_predictable(qcoder_records, monkeypatch):
    """Where a comparison tests a sample of the inputs (2^n x inputs > 2^18, or a problem's
    max_columns), the sample is drawn with the judge's secret: a program cannot hard-code the
    outputs of exactly the tested inputs (e.g. phase-flip only the sampled |x>, x < L)."""
    from quantum_codegen_eval.judges.qcoder import simulate as sim
    from quantum_codegen_eval.judges.qcoder.specs import base

    seen = []
    real = sim.simulate

    def spy(flat, nq, cols, *a, **k):
        seen.append(tuple(cols))
        return real(flat, nq, cols, *a, **k)

    monkeypatch.setattr(base.sim, "simulate", spy)
    spec = get_spec("QPC001_B4")
    rec = qcoder_records["QPC001_B4"]
    for judge in (QCoderJudge(secret="a"), QCoderJudge(secret="b")):
        case = next(c for c in judge.cases(rec) if c["args"]["n"] == 10)
        (job,) = judge.jobs(rec, spec.reference)
        assert "sample_key" not in job.peer.files["qcoder_cases.json"]
        flat = sim.inline(__import__("qiskit").QuantumCircuit(10), {})
        spec.compare(case, flat, 10, {})
    assert len(seen) == 2 and len(seen[0]) < 2 ** 10 and seen[0] != seen[1]
