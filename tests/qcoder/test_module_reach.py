"""QCoder's module rule is about what a program uses (issue 17).

* ``import qiskit.circuit.library.standard_gates`` (permitted) binds the top-level ``qiskit``;
  through it the transpiler, synthesis and the rest of the circuit library were reachable and
  such programs got AC. Every use of such a name must stay inside the permitted modules.
* A refusal the program triggered could be made to vanish: a read-only descriptor of the same
  file ``dup2``-ed over the UME channel passes the identity check but cannot be written, so the
  refusal was never recorded (and the program caught the error). A channel that cannot be
  written is tampering: UME.
"""

from __future__ import annotations

import pytest
from redteam import assert_verdict

pytestmark = pytest.mark.upstream

IMP = "import qiskit.circuit.library.standard_gates\nfrom qiskit import QuantumCircuit\n\n\n"
A1 = "def solve():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    return qc\n"

CHECKED = [
    ("library-through-qiskit", "QPC002_B4", IMP + (
        "def solve(n):\n    qc = QuantumCircuit(n)\n"
        "    qc.compose(qiskit.circuit.library.QFT(n), inplace=True)\n    return qc\n"),
     "UME", "qiskit.circuit.library.QFT"),
    ("transpiler-through-qiskit", "QPC001_A1", IMP + (
        "def solve():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n"
        "    return qiskit.transpile(qc, basis_gates=['u', 'cx'])\n"),
     "UME", "qiskit.transpile"),
    ("package-passed-around", "QPC001_A1", IMP + "_q = qiskit\n\n\n" + A1, "UME", "qiskit"),
    ("permitted-through-qiskit", "QPC001_A1", IMP + (
        "def solve():\n    qc = qiskit.QuantumCircuit(1)\n"
        "    qc.append(qiskit.circuit.library.standard_gates.HGate(), [0])\n    return qc\n"),
     "AC", ""),
]
_REACH = "import numpy.lib._datasource as _d\nfrom qiskit import QuantumCircuit\n\n_os = _d.os\n_sys = _os.sys\n"
_CHANNEL_FD = ("_ino = _os.stat('ume.log').st_ino\n"
               "_fd = [f for f in range(3, 64) if _os.path.exists('/proc/self/fd/%d' % f)\n"
               "       and _os.fstat(f).st_ino == _ino][0]\n")
RUNTIME = [
    # the refusal of ``import socket`` is never written: the channel is a read-only duplicate
    ("channel-made-read-only", "QPC001_A1", (
        "import numpy.lib._datasource as _d\nfrom qiskit import QuantumCircuit\n\n"
        "_os = _d.os\nfor _fd in range(3, 64):\n    try:\n        _st = _os.fstat(_fd)\n"
        "    except OSError:\n        continue\n"
        "    _ro = _os.open('ume.log', _os.O_RDONLY)\n"
        "    if _os.fstat(_ro).st_ino == _st.st_ino:\n        _os.dup2(_ro, _fd)\n"
        "try:\n    import socket\nexcept Exception:\n    pass\n\n\n" + A1),
     "UME", "tampered"),
    # the harness's module (registered in sys.modules) patched everywhere, and the cells of the
    # import guard's closure (it is builtins.__import__) rewired to a silent writer and a rule
    # that permits everything: the audit hook's refusal is still recorded
    ("patch-the-harness-module-and-guard", "QPC001_A1", _REACH + (
        "_h = _sys.modules['quantum_codegen_eval.judges.qcoder.jobs.harness']\n"
        "_t = _sys.modules['quantum_codegen_eval.judges.qcoder.jobs.circuit_tree']\n"
        "_h.TAMPER_EXIT, _h.CAND, _h.BLOCK_ANY, _h.DANGEROUS = 0, '<none>', ('none',), frozenset()\n"
        "_h.OSError, _h.PermissionError, _h.ImportError = ZeroDivisionError, KeyError, KeyError\n"
        "_h.module_rule = lambda allowed, any_: (lambda name: True)\n"
        "_h.channel_writer = lambda *a: (lambda line: None)\n"
        "_h.audit_hook = _h.import_guard = _h.main = _t.enc_circ = lambda *a: None\n"
        "for _c in _sys.modules['builtins'].__import__.__closure__:\n"
        "    _n = getattr(_c.cell_contents, '__name__', '')\n"
        "    if _n == 'emit':\n        _c.cell_contents = lambda line: None\n"
        "    elif _n == 'module_ok':\n        _c.cell_contents = lambda name: True\n"
        "try:\n    import smtplib\nexcept Exception:\n    pass\n\n\n" + A1),
     "UME", "smtplib"),
    # the same rewiring of the guard's closure alone
    ("rewire-the-import-guard", "QPC001_A1", _REACH + (
        "for _c in _sys.modules['builtins'].__import__.__closure__:\n"
        "    _n = getattr(_c.cell_contents, '__name__', '')\n"
        "    if _n == 'emit':\n        _c.cell_contents = lambda line: None\n"
        "    elif _n == 'module_ok':\n        _c.cell_contents = lambda name: True\n"
        "try:\n    import smtplib\nexcept Exception:\n    pass\n\n\n" + A1),
     "UME", "smtplib"),
    # text without a newline written to the channel first: the refusal is still a line
    ("swallow-the-next-refusal", "QPC001_A1", _REACH + _CHANNEL_FD + (
        "_os.write(_fd, b'# ')\ntry:\n    import smtplib\nexcept Exception:\n    pass\n\n\n" + A1),
     "UME", "smtplib"),
    # END lines past the size the judge reads, then a refusal: flooding is tampering
    ("flood-the-channel", "QPC001_A1", _REACH + _CHANNEL_FD + (
        "_os.write(_fd, b'END\\n' * (1 << 17))\n"
        "try:\n    import smtplib\nexcept Exception:\n    pass\n\n\n" + A1),
     "UME", "flooded"),
]


@pytest.fixture(scope="module")
def verdicts(qsandbox, qcoder_records, verdict_table):
    return verdict_table(qsandbox, qcoder_records, CHECKED, RUNTIME)


@pytest.mark.parametrize("case", CHECKED + RUNTIME, ids=lambda c: c[0])
def test_verdict(verdicts, case):
    name, _pid, _code, status, text = case
    assert_verdict(verdicts[name], status, text, name=name)
