"""Completions that try to get AC from the QHack judge without solving the challenge.

Each program is written for this file; each test asserts the exact verdict the judge must give.
The principle under test (docs/benchmarks/qhack.md): the program produces data only, the verdict
is decided where no code of the completion ran, and a malformed output is a verdict.
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.judges.base import judge_one

pytestmark = [pytest.mark.upstream, pytest.mark.era]


@pytest.fixture(scope="module")
def judge():
    return qhack.make_judge(env="era")


@pytest.fixture(scope="module")
def verdict(judge, qhack_problems, sandbox):
    def go(challenge_id: str, code: str):
        return judge_one(judge, qhack_problems[challenge_id], code, sandbox)

    return go


def _add(body: str, prelude: str = "") -> str:
    return f"{prelude}\ndef add_numbers(x, y):\n" + "".join(
        f"    {line}\n" for line in body.strip("\n").splitlines())


def _npy(descr: str, shape: tuple, data: bytes = b"") -> str:
    """Base64 of ``.npy`` bytes whose header claims ``descr`` and ``shape`` over ``data``."""
    header = repr({"descr": descr, "fortran_order": False, "shape": shape}).encode() + b"\n"
    raw = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + data
    return base64.b64encode(raw).decode()


def _first_failure(v):
    return next(t for t in v.tests if not t.passed)


# ---------------------------------------------------------------- vacuous and malformed outputs

@pytest.mark.parametrize("body,why", [
    ("return []", "shape"),                      # np.allclose([], x) is vacuously true upstream
    ("return [x + y] * 3", "shape"),             # broadcasting a longer array
    ("return None", "not a JSON value"),
    ("return float('nan')", "not a JSON value"),  # str(nan) == 'nan'
    ("return 'NaN'", "not finite"),               # JSON's NaN literal
    ("return 'Infinity'", "not finite"),
    ("return '\"566\"'", "not a number"),
])
def test_vacuous_or_malformed_outputs_are_wrong_answers(verdict, body, why):
    v = verdict("2023/tutorial_1", _add(body))
    assert (v.status, v.tests_passed, v.error_class) == ("WA", 0, "reasoning"), v.message
    assert why in _first_failure(v).message


def test_huge_and_deep_outputs_are_wrong_answers(verdict):
    huge = _add("return 'x' * 3_000_000")  # over the codec's string limit (2 M characters)
    v = verdict("2023/tutorial_1", huge)
    assert v.status == "WA" and "malformed output" in _first_failure(v).message
    # deeper than the codec's depth limit: crosses as a graph of its lists, and is wrong
    deep = ("def is_product(state, subsystem, wires):\n    d = []\n"
            "    for _ in range(500):\n        d = [d]\n    return d\n")
    v = verdict("2023/tutorial_4", deep)
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    assert "[[[[" in (_first_failure(v).got or ""), _first_failure(v)
    deep_json = ("def shor(state, error_key, qubit):\n    import numpy as np\n    d = []\n"
                 "    for _ in range(200):\n        d = [d]\n    return np.array([d], dtype=object)\n")
    v = verdict("2023/tutorial_3", deep_json)
    assert v.status == "WA" and "does not match the expected shape" in _first_failure(v).message


def test_always_equal_output_object(verdict):
    # a str subclass whose __eq__ is always true passes upstream's `solution_output == expected`
    code = ("class Yes(str):\n    def __eq__(self, other):\n        return True\n"
            "    __hash__ = str.__hash__\n\n"
            "def is_product(state, subsystem, wires):\n    return Yes('maybe')\n")
    v = verdict("2023/tutorial_4", code)
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    # a str subclass crosses as its plain value: its __eq__ stays in the program's process
    assert "have 'maybe'" in _first_failure(v).message


# ---------------------------------------------------------------- tampering with the program's own process

def test_monkeypatching_numpy_json_and_builtins_at_run_time(verdict):
    body = """
import builtins, json
import numpy
import pennylane as qml
numpy.allclose = numpy.isclose = lambda *a, **k: True
qml.math.allclose = lambda *a, **k: True
json.loads = lambda s, *a, **k: 566
return 7
"""
    v = verdict("2023/tutorial_1", _add(body))
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    assert v.details["check_trust"] == "data"
    assert "isn't quite right" in _first_failure(v).message


def test_breaking_builtins_breaks_only_the_program(verdict):
    # the program's own process cannot even write its output any more: a runtime error
    v = verdict("2023/tutorial_1", _add("import builtins\nbuiltins.isinstance = lambda *a: True\n"
                                        "return 566"))
    assert (v.status, v.tests_passed) == ("RE", 0), v.message


def test_top_level_rebinding_of_harness_names_is_dropped(verdict):
    prelude = """
import json
import numpy as np
from pennylane import numpy as pnp
np.allclose = lambda *a, **k: True
pnp.allclose = lambda *a, **k: True
setattr(pnp, "isclose", lambda *a, **k: True)

class FakeJson:
    loads = staticmethod(lambda s: 0.0)
json = FakeJson()
test_cases = [["[1, 2]", "7"]]

def run(test_case_input):
    return "566"

def check(solution_output, expected_output):
    return None

check = lambda *a: None
"""
    v = verdict("2023/tutorial_1", _add("return 7", prelude))
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    assert v.tests[1].got == "7"


def test_replacing_run_and_check_through_globals_at_run_time(verdict):
    body = """
g = globals()
g["check"] = lambda *a: None
g["run"] = lambda *a: "566"
import sys
for frame_globals in [sys._getframe(i).f_globals for i in range(3)]:
    frame_globals["check"] = lambda *a: None
return 7
"""
    v = verdict("2023/tutorial_1", _add(body))
    assert (v.status, v.tests_passed) == ("WA", 0), v.message


# ---------------------------------------------------------------- forging results, reading secrets

def test_forged_result_file_and_exit(verdict):
    # claims a passed in-process check() and an always-true output, then exits before the runner
    code = ("def is_product(state, subsystem, wires):\n    import json, os\n"
            "    with open('qce_result.json', 'w') as fh:\n"
            "        json.dump({'output': 'maybe', 'check': {'passed': True}}, fh)\n"
            "    os._exit(0)\n")
    v = verdict("2023/tutorial_4", code)
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    assert _first_failure(v).got == "maybe"


def test_oversized_forged_result_file(verdict):
    code = _add("import os\nwith open('qce_result.json', 'w') as fh:\n"
                "    fh.write('[' * 50_000_000)\nos._exit(0)")
    v = verdict("2023/tutorial_1", code)
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    assert "output too large" in _first_failure(v).message


@pytest.mark.parametrize("record,status", [
    ("{'error': {'phase': 'load', 'frames': [1, [2]], 'type': ['x'], 'message': None}}", "RE"),
    ("{'error': 'boom'}", "RE"),
    (f"{{'output': {{'$': 'ndarray', 'npy': {_npy('<f8', (10**6, 10**6))!r}}}}}", "WA"),
    (f"{{'output': {{'$': 'ndarray', 'npy': {_npy('|O', (1,), b'AA')!r}}}}}", "WA"),
    ("[1, 2, 3]", "RE"),
])
def test_malformed_result_records(verdict, record, status):
    code = _add(f"import json, os\nwith open('qce_result.json', 'w') as fh:\n"
                f"    json.dump({record}, fh)\nos._exit(0)")
    v = verdict("2023/tutorial_1", code)
    assert (v.status, v.tests_passed) == (status, 0), v.message
    assert not v.details.get("judge_error")


def test_exit_before_any_result(verdict):
    v = verdict("2023/tutorial_1", _add("import os\nos._exit(0)"))
    assert (v.status, v.tests_passed) == ("RE", 0), v.message
    assert "without a result" in _first_failure(v).message


def test_expected_outputs_are_nowhere_in_the_program(verdict, qhack_problems):
    # tutorial_3's expected outputs are written with two spaces after commas: look for that
    # text in every file of the working dir, the job's /proc, every frame and every gc object
    code = r'''
def shor(state, error_key, qubit):
    import gc, os, sys
    needle = "1.0," + " " * 2 + "1.0"
    found = []
    for root, _, files in os.walk("."):
        for f in files:
            try:
                with open(os.path.join(root, f), errors="replace") as fh:
                    found.append(needle in fh.read())
            except OSError:
                pass
    for p in ("/proc/self/environ", "/proc/self/cmdline", f"/proc/{os.getppid()}/environ",
              f"/proc/{os.getppid()}/cmdline"):
        try:
            with open(p, "rb") as fh:
                found.append(needle.encode() in fh.read())
        except OSError:
            pass
    def strings(values):
        return [v for v in values if isinstance(v, str) and v is not needle]

    f = sys._getframe()
    while f is not None:
        found += [needle in v for v in strings([*f.f_locals.values(), *f.f_globals.values()])]
        f = f.f_back
    for o in gc.get_objects():
        items = [*o.keys(), *o.values()] if isinstance(o, dict) else \
            o if isinstance(o, (list, tuple)) else []
        found += [needle in v for v in strings(items)]
    import numpy as np
    return np.array([float(any(found))] * 9)
'''
    assert "1.0,  1.0" in qhack_problems["2023/tutorial_3"].tests[0]["expected"]
    v = verdict("2023/tutorial_3", code)
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    assert v.tests[0].got == str([0.0] * 9)


def test_script_2022_printing_past_the_capture(verdict, qhack_problems):
    # writes the right answer straight to the process's stdout; the driver's own output decides
    rec = qhack_problems["2022/algorithms_100_DeutschJozsa_template"]
    answers = [t["expected"].strip() for t in rec.tests]
    code = ("def deutsch_jozsa(oracle):\n    import os, sys\n"
            f"    for a in {answers!r}:\n"
            "        os.write(1, (a + '\\n').encode())\n        sys.__stdout__.write(a + '\\n')\n"
            "    return 'not sure'\n")
    v = verdict(rec.id, code)
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    assert v.tests[0].got == "not sure"


# ---------------------------------------------------------------- recorded replay

GHZ_CIRCUIT_CNOT = """
import pennylane as qml
import pennylane.numpy as np


def GHZ_circuit(noise_param, n_qubits):
    qml.Hadamard(wires=0)
    for i in range(1, n_qubits):
        qml.CNOT(wires=[0, i])
        qml.DepolarizingChannel(noise_param, wires=i)
    return qml.state()


def GHZ_fidelity(noise_param, n_qubits):
    dev = qml.device("default.mixed", wires=n_qubits)
    rho = qml.QNode(GHZ_circuit, dev)(noise_param, n_qubits)
    ghz = np.zeros(2**n_qubits)
    ghz[0] = ghz[-1] = 1 / np.sqrt(2)
{tamper}
    return float(np.real(ghz @ rho @ ghz))
"""


@pytest.mark.parametrize("tamper", [
    "",
    # the official check's isinstance() is patched in the program's process: Hadamard and CNOT
    # pass for RX/RY/CZ there (the old in-process check gave AC)
    "    import builtins\n    real = builtins.isinstance\n"
    "    allowed = (qml.RX, qml.RY, qml.CZ, qml.DepolarizingChannel)\n"
    "    builtins.isinstance = lambda o, c: (type(o).__name__ in ('Hadamard', 'CNOT') and "
    "c in allowed) or real(o, c)",
    # the gate classes are renamed and re-based in the program's process
    "    qml.Hadamard.name = 'RY'\n    qml.CNOT.name = 'CZ'",
])
def test_forbidden_gates_are_seen_in_the_replayed_circuit(verdict, tamper):
    v = verdict("2024/GHZ_inn", GHZ_CIRCUIT_CNOT.format(tamper=tamper))
    assert (v.status, v.tests_passed, v.details["check_trust"]) == ("WA", 0, "circuit"), v.message
    assert "forbidden gates" in _first_failure(v).message


def test_the_live_fallback_is_forgeable_and_flagged(judge, qhack_problems, sandbox):
    # a challenge without a trusted check (here GHZ_inn under another id, as a changed upstream
    # could add one) runs the official check in the program's process: the isinstance() patch
    # forges it. This is why such verdicts carry check_trust == "live" into every report.
    import dataclasses

    rec = dataclasses.replace(qhack_problems["2024/GHZ_inn"], id="2024/GHZ_inn_unlisted")
    patched = GHZ_CIRCUIT_CNOT.format(tamper=(
        "    import builtins\n    real = builtins.isinstance\n"
        "    allowed = (qml.RX, qml.RY, qml.CZ, qml.DepolarizingChannel)\n"
        "    builtins.isinstance = lambda o, c: (type(o).__name__ in ('Hadamard', 'CNOT') and "
        "c in allowed) or real(o, c)"))
    v = judge_one(judge, rec, patched, sandbox)
    assert (v.status, v.details["check_trust"]) == ("AC", "live"), v.message
    honest = judge_one(judge, rec, GHZ_CIRCUIT_CNOT.format(tamper=""), sandbox)
    assert (honest.status, honest.details["check_trust"]) == ("WA", "live"), honest.message


def test_patching_the_checks_math_in_the_program_changes_nothing(verdict):
    # qml.math.fidelity and np.allclose patched inside the solution's QNode body: only the
    # program's own process sees them; run() and check() are re-run in the trusted job
    code = """
import pennylane as qml
from pennylane import numpy as np

dev = qml.device('default.qubit', wires = 2)

@qml.qnode(dev)
def trotterize(alpha, beta, time, depth):
    np.allclose = lambda *a, **k: True
    qml.math.allclose = lambda *a, **k: True
    qml.RX(0.1, wires=0)
    return qml.probs(wires=[0, 1])
"""
    v = verdict("2023/fall_of_sqynet_100", code)
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    assert "correct probabilities" in _first_failure(v).message


def test_built_in_trotterization_is_seen_before_decomposition(verdict):
    code = """
import pennylane as qml
from pennylane import numpy as np

dev = qml.device('default.qubit', wires = 2)

@qml.qnode(dev)
def trotterize(alpha, beta, time, depth):
    H = qml.Hamiltonian([alpha, beta], [qml.PauliX(0) @ qml.PauliX(1), qml.PauliZ(0) @ qml.PauliZ(1)])
    qml.ApproxTimeEvolution(H, time, depth)
    return qml.probs(wires=[0, 1])
"""
    v = verdict("2023/fall_of_sqynet_100", code)
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    assert "trotterize() uses ApproxTimeEvolution" in _first_failure(v).message


def test_a_condition_on_the_harness_measurement_is_replayed(verdict):
    # the right circuit with the condition inverted: the measurement value handed to the
    # solution is a trusted object in the replay, so the condition must be recorded faithfully
    code = """
import pennylane as qml


def bell_preparation(wires):
    qml.Hadamard(wires=wires[0])
    for w in wires[1:]:
        qml.CNOT(wires=[wires[0], w])


def emergency_gate_U(wire):
    qml.Hadamard(wires=wire)


def setting_new_robot(output, wires):
    qml.cond({cond}, qml.PauliZ)(wires=wires[0])
    qml.CNOT(wires=wires)
"""
    good = verdict("2023/a_tale_of_timbits_400", code.format(cond="output"))
    assert good.status == "AC", good.message
    bad = verdict("2023/a_tale_of_timbits_400", code.format(cond="~output"))
    assert (bad.status, bad.tests_passed) == ("WA", 0), bad.message
    assert "final state is not correct" in _first_failure(bad).message


@pytest.mark.parametrize("garbage,why", [
    ('{"ops": "x", "meas": [], "ret": null, "names": []}', "malformed record"),
    ('{"ops": [["RX", [0], [0.1]]], "meas": [["probs", [0, 1], null]], "ret": 7, '
     '"names": []}', "malformed record"),
    ('{"ops": [["os.system", [0], []]], "meas": [], "ret": null, "names": []}',
     "cannot be rebuilt"),
    ('{"ops": [["IF", [["local", 5]], [[1]], ["PauliX", [0], []]]], "meas": [], "ret": null, '
     '"names": []}', "malformed condition"),
])
def test_a_forged_record_is_a_wrong_answer(verdict, garbage, why):
    # the program finds the recorder through gc and makes it store what the program wants
    code = f"""
import gc
import json
import pennylane as qml
from pennylane import numpy as np

dev = qml.device('default.qubit', wires = 2)

@qml.qnode(dev)
def trotterize(alpha, beta, time, depth):
    for _ in range(depth):
        qml.IsingXX(2 * alpha * time / depth, wires=[0, 1])
        qml.IsingZZ(2 * beta * time / depth, wires=[0, 1])
    for obj in gc.get_objects():  # the recorder (jobs/recorder.py): its entry encoder replaced
        if type(obj).__name__ == "Recorder" and hasattr(obj, "calls"):
            obj._entry = lambda *a: json.loads({garbage!r})
    return qml.probs(wires=[0, 1])
"""
    v = verdict("2023/fall_of_sqynet_100", code)
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    assert why in _first_failure(v).message
    assert not v.details.get("judge_error")


SOLUTIONS = Path(__file__).parent / "solutions"
#: correct solutions (tests/qhack/solutions) and the function whose first call forges their
#: record of the calls in order (jobs/recorder.py)
FORGED_ORDER = {"2024/ruins_oasis": "circuit(oracle)",
                "2024/fireworks_qutropolis": "is_safe_configuration(oracle)"}


def _forging(challenge: str, function: str, forge: str) -> str:
    """The solution of ``challenge`` whose ``function`` first replaces the recorder's
    ``_in_order(name, key, entry)`` with ``forge`` (which may call the original, ``real``)."""
    code = (SOLUTIONS / f"{challenge}.py").read_text()
    head = f"def {function}:\n"
    assert head in code, (challenge, function)
    code = code.replace(head, f"""{head}    if not FORGED:
        rec = next(o for o in gc.get_objects() if type(o).__name__ == "Recorder")
        real = rec._in_order
        rec._in_order = {forge}
        FORGED.append(rec)
""")
    return code.replace("import pennylane as qml\n", "import gc\nimport pennylane as qml\n\n"
                        "FORGED = []\n", 1)


@pytest.mark.parametrize("challenge", sorted(FORGED_ORDER))
@pytest.mark.parametrize("forge,why", [
    ("lambda name, key, entry: None", "a call the program did not record (call 1)"),
    ("lambda name, key, entry: rec.order.setdefault(name, []).append(7)", "malformed record"),
    ("lambda name, key, entry: (rec.rows.setdefault(name, ({}, []))[1].append(['[[], []]', entry]),"
     " rec.order.setdefault(name, []).append(len(rec.rows[name][1]) - 1))",
     "call 1 was recorded with other arguments"),
])
def test_forged_call_order_is_a_wrong_answer(verdict, challenge, forge, why):
    # no call, a row that is not there, every call recorded without its oracle. The trusted job
    # replays the n-th call with the n-th record, made with the same arguments, or not at all.
    # (Reading the oracle is AC, as in the contest: tests/qhack/test_hidden_oracles.py.)
    v = verdict(challenge, _forging(challenge, FORGED_ORDER[challenge], forge))
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    assert why in _first_failure(v).message
    assert not v.details.get("judge_error")


@pytest.mark.slow
def test_office_hijinks_400_forged_value_order_is_a_wrong_answer(verdict):
    # process_output's values are recorded in order too (every call its own value, RecordCheck
    # sequence): a record that says its first value came from another shot is a wrong answer
    forge = ("lambda name, key, entry: real(name, '[[[0, 0, 0, 0, 0]], []]' "
             "if name == 'process_output' else key, entry)")
    code = _forging("2023/office_hijinks_400", "process_output(measurement)", forge)
    v = verdict("2023/office_hijinks_400", code)
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    assert "process_output(): call 1 was recorded with other arguments" in \
        _first_failure(v).message
    assert not v.details.get("judge_error")


@pytest.mark.parametrize("body,why", [
    ("qml.Identity(wires=0)", "Wrong answer"),  # the official check, on the replayed circuit
    ("qml.QubitUnitary(np.eye(2), wires=0)", "U() uses QubitUnitary"),
    ("qml.RX(0.1, wires=0)\n    qml.RX.name = 'Hadamard'", "Hadamard: bad parameters"),
])
def test_replayed_circuit_under_the_official_check(verdict, body, why):
    code = f"import numpy as np\nimport pennylane as qml\n\ndef U():\n    {body}\n"
    v = verdict("2024/three_shipping_companies", code)
    assert (v.status, v.details["check_trust"]) == ("WA", "circuit"), v.message
    assert why in v.message


# ---------------------------------------------------------------- circuit checks (re-simulated)

def test_forbidden_gate_hidden_from_an_in_process_check(verdict):
    # CNOTs are not allowed; the program makes an in-process check see Hadamards only
    code = '''
import pennylane as qml

@qml.qnode(dev)
def circuit():
    qml.CNOT.name = "Hadamard"
    qml.Hadamard(wires=0)
    for w in range(1, 5):
        qml.CNOT(wires=[0, w])
    return qml.probs(wires=range(5))
'''
    v = verdict("2024/mathematicians_at_resort", code)
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    assert "Hadamard: wrong wire count" in v.message  # rebuilt from what it claims, not run


def test_a_record_too_big_to_replay_is_a_time_limit_not_a_judge_error(qhack_problems, sandbox):
    # the program forges a record of 20,000 gates per call (cheap to write, slow to simulate):
    # the trusted replay's time comes from what the program recorded, so its limit is a TLE
    j = qhack.make_judge(env="era", time_scale=0.001, trusted_cpu=0.5)
    code = """
import gc
import pennylane as qml
from pennylane import numpy as np

dev = qml.device('default.qubit', wires = 2)

@qml.qnode(dev)
def trotterize(alpha, beta, time, depth):
    big = {"ops": [["RX", [0], [0.1]]] * 20000, "meas": [["probs", [0, 1], None]],
           "ret": 0, "names": []}
    for obj in gc.get_objects():
        if type(obj).__name__ == "Recorder" and hasattr(obj, "calls"):
            obj._entry = lambda *a: big
    return qml.probs(wires=[0, 1])
"""
    v = judge_one(j, qhack_problems["2023/fall_of_sqynet_100"], code, sandbox)
    assert (v.status, v.tests_passed) == ("TLE", 0), v.message
    assert not v.details.get("judge_error")
    assert "trusted check of the program's output" in _first_failure(v).message
