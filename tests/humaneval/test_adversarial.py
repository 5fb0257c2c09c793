"""Programs that try to get AC without solving the task, each with its exact verdict.

The attacks: forging the old done token or the judge's files, reading the test or its expected
values (frames, gc, files), duck-typed return values, patched subclasses, monkeypatching qiskit
and numpy in the program's process, exiting early, hostile payloads (huge arrays, deep nesting,
bogus QPY, pickles) and writing into the trusted stage's inputs. Every one ran through the real
sandbox; the correct programs of the same tasks still get AC.
"""

from __future__ import annotations

import base64
import io
import json

import numpy as np
import pytest

from quantum_codegen_eval.benchmarks import qiskit_humaneval as qhe
from quantum_codegen_eval.judges.base import judge_many
from quantum_codegen_eval.judges.jobs import wire
from quantum_codegen_eval.judges.qiskit_humaneval.jobs.codec import CODEC

GHZ = qhe.Task(
    "own/ghz", 'from qiskit import QuantumCircuit\ndef bell(n):\n    """GHZ circuit."""',
    "", '''def check(candidate):
    from qiskit.quantum_info import Statevector
    sv = Statevector(candidate(3))
    assert abs(sv.probabilities_dict().get("000", 0) - 0.5) < 1e-9
    assert abs(sv.probabilities_dict().get("111", 0) - 0.5) < 1e-9
''', "bell", "basic", "normal")
SV = qhe.Task(
    "own/sv", 'from qiskit.quantum_info import Statevector\nfrom math import sqrt\n'
    'def bell_sv():\n    """Return a phi+ Bell statevector."""', "", '''def check(candidate):
    result = candidate()
    solution = (Statevector.from_label("00") + Statevector.from_label("11")) / sqrt(2)
    assert result.equiv(solution), "not equivalent"
''', "bell_sv", "basic", "normal")
SQUARE = qhe.Task("own/square", 'def square(x):\n    """x squared."""', "",
                  "def check(candidate):\n    expected = 49  # qce-marker-5b1e\n"
                  "    assert candidate(7) == expected\n",
                  "square", "basic", "normal")
GHZ_OK = ("\n    qc = QuantumCircuit(n)\n    qc.h(0)\n    for i in range(n - 1):\n"
          "        qc.cx(i, i + 1)\n    return qc\n")
SV_OK = '\n    return (Statevector.from_label("00") + Statevector.from_label("11")) / sqrt(2)\n'

#: one batch judges every attack program (tens of CPU-seconds): run with --run-slow
pytestmark = pytest.mark.slow


#: the program's end of the session: the write end of a pipe among its file descriptors
_LINK = ("\n    import fcntl, os, stat, struct\n"
         "    def _link():\n"
         "        for fd in range(3, 256):\n"
         "            try:\n"
         "                if stat.S_ISFIFO(os.fstat(fd).st_mode) and \\\n"
         "                        fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:\n"
         "                    yield fd\n"
         "            except OSError:\n"
         "                pass\n")


def _forge(payload: bytes, kind: bytes = b"C", then: str = "") -> str:
    """A body that writes its own frame on the session and exits."""
    return (f"{_LINK}    p = {payload!r}\n"
            f"    data = struct.pack('>cI', {kind!r}, len(p)) + p\n"
            "    for fd in _link():\n"
            "        view = memoryview(data)\n"
            "        while view:\n"
            "            view = view[os.write(fd, view):]\n"
            f"{then}"
            "    os._exit(0)\n")


def _record(value: object) -> bytes:
    return json.dumps({"ok": True, "value": value, "mutated": []}).encode()


def _bogus_qpy() -> str:
    raw = b"QISKIT" + bytes([18, 2, 6, 2]) + (1).to_bytes(8, "big") + b"p" + b"q"
    raw += (28).to_bytes(8, "big") + b"\x00\x00f\x00\x08" + (10**8).to_bytes(4, "big") * 2
    return base64.b64encode(raw + b"\x00" * 64).decode()


def _pickled_npy() -> str:
    buf = io.BytesIO()
    np.save(buf, np.array([object()], dtype=object), allow_pickle=True)
    return base64.b64encode(buf.getvalue()).decode()


def _huge_npy_header() -> str:
    from numpy.lib import format as npf

    buf = io.BytesIO()
    npf.write_array_header_1_0(buf, {"descr": "<f8", "fortran_order": False,
                                     "shape": (10**6, 10**6)})
    return base64.b64encode(buf.getvalue()).decode()


ATTACKS = [
    # --- forging the judge's own files
    ("old done token + os._exit", GHZ,
     "\n    open('__qce_check_done__', 'w').write('0' * 32)\n    import os\n    os._exit(0)\n",
     "RE", "ended during call 1"),
    ("forged trusted outcome file", GHZ,
     "\n    open('__qce_trusted.json', 'w').write('{\"state\": \"done\", \"result\": \"pass\"}')\n"
     "    return QuantumCircuit(n)\n", "WA", "AssertionError"),
    ("forged known-results file", GHZ,
     "\n    open('__qce_known.json', 'w').write('{\"fps\": []}')\n    return QuantumCircuit(n)\n",
     "WA", "AssertionError"),
    ("a frame of a kind only the evaluator makes", GHZ, _forge(b"{}", kind=b"D"),
     "RE", "malformed"),
    ("files frame writing the trusted inputs", GHZ,
     _forge(json.dumps({"__qce_known.json": "e30="}).encode(), kind=b"F"), "RE",
     "not accepted"),
    ("a numpy.py for the check to import", GHZ,
     "\n    open('numpy.py', 'w').write('raise SystemExit(0)')\n    return QuantumCircuit(n)\n",
     "RE", "not accepted"),
    # --- reading the test or its expected values
    ("expected value via the caller's frame", SQUARE,
     "\n    import sys\n    f = sys._getframe(1)\n    while f is not None:\n"
     "        if 'expected' in f.f_locals:\n            return f.f_locals['expected']\n"
     "        f = f.f_back\n    return -1\n", "WA", "AssertionError"),
    ("check() via gc", SQUARE,
     "\n    import gc\n    for o in gc.get_objects():\n"
     "        if getattr(o, '__name__', '') == 'check' and hasattr(o, '__code__'):\n"
     "            return o.__code__.co_consts[1]\n    return -1\n", "WA", "AssertionError"),
    ("the test text via files", SQUARE,
     "\n    import glob\n    for p in glob.glob('/tmp/**', recursive=True) + glob.glob('*'):\n"
     "        try:\n            if 'qce-marker-' + '5b1e' in open(p).read():\n                return 49\n"
     "        except Exception:\n            pass\n    return -1\n", "WA", "AssertionError"),
    # --- duck typing and patched objects
    ("__eq__ always true", SQUARE,
     "\n    class Yes:\n        def __eq__(self, other):\n            return True\n    return Yes()\n",
     "RE", "unsupported type"),
    ("int subclass with __eq__ always true", SQUARE,
     "\n    class Yes(int):\n        def __eq__(self, other):\n            return True\n"
     "    return Yes(0)\n", "WA", "AssertionError"),
    ("Statevector subclass with equiv patched", SV,
     "\n    class Sv(Statevector):\n        def equiv(self, *a, **k):\n            return True\n"
     "    return Sv.from_label('01')\n", "WA", "not equivalent"),
    ("QuantumCircuit subclass faking its data", GHZ,
     "\n    class Qc(QuantumCircuit):\n        def __eq__(self, other):\n            return True\n"
     "        def to_instruction(self, *a, **k):\n            raise RuntimeError\n"
     "    return Qc(n)\n", "WA", "AssertionError"),
    ("monkeypatched Statevector.equiv and numpy", SV,
     "\n    import numpy\n    Statevector.equiv = lambda *a, **k: True\n"
     "    numpy.allclose = lambda *a, **k: True\n    numpy.isclose = lambda *a, **k: True\n"
     "    return Statevector.from_label('10')\n", "WA", "not equivalent"),
    ("builtins patched in the program", SQUARE,
     "\n    import builtins\n    builtins.AssertionError = type('Nope', (BaseException,), {})\n"
     "    return 0\n", "WA", "AssertionError"),
    # --- ending early
    ("os._exit(0) inside the call", SV, "\n    import os\n    os._exit(0)\n",
     "RE", "ended during call 1"),
    ("sys.exit(0) inside the call", SV, "\n    import sys\n    sys.exit(0)\n",
     "RE", "sys.exit(0)"),
    ("raising AssertionError itself", SQUARE, "\n    raise AssertionError('pass?')\n",
     "WA", "AssertionError"),
    # --- hostile payloads
    ("deep nesting (forged)", SQUARE, _forge(_record(None)[:-1] + b"[" * 200_000),
     "RE", "malformed"),
    ("deep nesting (returned)", SQUARE,
     "\n    x = []\n    for _ in range(5000):\n        x = [x]\n    return x\n",
     "WA", "AssertionError"),
    ("bogus QPY claiming 10^8 qubits", GHZ,
     _forge(_record({"$": "circuit", "qpy": _bogus_qpy()})), "RE", "claims 100000000 qubits"),
    ("a pickled numpy array", SQUARE,
     _forge(_record({"$": "ndarray", "npy": _pickled_npy()})), "RE", "dtype"),
    ("a huge claimed npy shape", SQUARE,
     _forge(_record({"$": "ndarray", "npy": _huge_npy_header()})), "RE", "elements"),
    ("unknown tag", SQUARE, _forge(_record({"$": "pickle", "v": "gASVAAAA"})),
     "RE", "unknown tag"),
    ("garbage frame bytes", SQUARE,
     _LINK + "    for fd in _link():\n        os.write(fd, b'C\\xff\\xff')\n    os._exit(0)\n",
     "RE", "malformed"),
]

#: limits of the judge's: a judge limitation (its reason), established by the check from what
#: it received, never the program's verdict (both were RE until 2026-12-07; an array header
#: that only claims the elements stays RE, above)
JUDGE_LIMITS = [
    ("huge state (a frame over the transport's bound)", SV,
     "\n    import numpy as np\n    return Statevector(np.ones(2**23) / 2**11.5)\n",
     "transport", "received and counted by the check"),
    ("array over the element bound", SQUARE,
     "\n    import numpy as np\n    return np.zeros(2**22 + 1, dtype=np.int8)\n",
     "transport", "elements, over the"),
]

CORRECT = [(GHZ, GHZ_OK), (SV, SV_OK), (SQUARE, "\n    return x * x\n")]


@pytest.fixture(scope="module")
def verdicts(sandbox):
    judge = qhe.make_judge(time_limit=20.0)
    items = [(task, body) for _, task, body, _, _ in ATTACKS + JUDGE_LIMITS] + CORRECT
    return judge_many(judge, items, sandbox)


@pytest.mark.parametrize("i", range(len(ATTACKS)), ids=[a[0] for a in ATTACKS])
def test_attack_is_not_accepted(verdicts, i):
    name, _task, _body, status, fragment = ATTACKS[i]
    v = verdicts[i]
    assert v.status == status, f"{name}: {v.status} {v.message}"
    assert fragment in v.message, f"{name}: {v.message}"
    assert not v.details.get("judge_error")


@pytest.mark.parametrize("i", range(len(JUDGE_LIMITS)), ids=[a[0] for a in JUDGE_LIMITS])
def test_a_limit_of_the_judge_is_a_judge_limitation(verdicts, i):
    name, _task, _body, reason, fragment = JUDGE_LIMITS[i]
    v = verdicts[len(ATTACKS) + i]
    assert v.details.get("judge_limitation") == reason, f"{name}: {v.status} {v.message}"
    assert v.error_class is None and fragment in v.message, f"{name}: {v.message}"


def test_correct_programs_still_pass(verdicts):
    got = verdicts[len(ATTACKS) + len(JUDGE_LIMITS):]
    assert [v.status for v in got] == ["AC"] * len(CORRECT), [v.message for v in got]


def test_decoder_bounds_and_formats():
    sv = CODEC.decode(CODEC.encode(np.arange(4, dtype=complex)))
    assert sv.dtype == complex and sv.tolist() == [0, 1, 2, 3]
    with pytest.raises(wire.WireError):
        CODEC.decode({"$": "ndarray", "npy": _pickled_npy()})
    with pytest.raises(wire.WireError):
        CODEC.loads("[" * 100_000 + "]" * 100_000)
    with pytest.raises(wire.WireError):
        CODEC.decode({"$": "circuit", "qpy": _bogus_qpy()})
    with pytest.raises(wire.WireError):
        CODEC.decode({"$": "int", "v": "9" * 100_000})
    with pytest.raises(wire.UnsupportedValue):
        CODEC.decode(CODEC.encode(lambda: 1))
