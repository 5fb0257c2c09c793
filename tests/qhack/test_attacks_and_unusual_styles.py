"""Red-team round for the QHack judge: attacks written against the judge as it stood, and
correct programs in unusual styles that must keep their AC.

Every case is judged once, all in one batch (``judge_many``) by the real judge in the era
environments; each test asserts the verdict the judge must give. The attack classes already in
tests/qhack/test_adversarial.py are not repeated here. Fixed by this round (docs/benchmarks/qhack.md,
"Trust"): a circuit_right of office_hijinks_300 that reads the error the harness queued and undoes
it got AC; Barrier / GlobalPhase in a recorded circuit made a correct program WA; ``qml.compile``
as a decorator made the solution "missing" (FORMAT); an ndarray where a "True"/"False" text was
due was a judge error.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from redteam import assert_verdict, judge_cases

from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.judges.base import judge_many
from quantum_codegen_eval.judges.qhack import checks, payload
from quantum_codegen_eval.judges.qhack.program import FormatProblem, prepare

pytestmark = pytest.mark.era  # QHack era environments

SOLUTIONS = Path(__file__).parent / "solutions"


def _solution(name: str) -> str:
    return (SOLUTIONS / f"{name}.py").read_text(encoding="utf-8")


# ---------------------------------------------------------------- correct programs, unusual styles

STYLES: dict[str, tuple[str, str]] = {
    # a class with call-count state, pennylane tensors with requires_grad, qml.math, printing,
    # qml.QNode(...) instead of the decorator, on a device of its own
    "qnode_object_and_class_state": ("2023/fall_of_sqynet_100", '''
import pennylane as qml
from pennylane import numpy as pnp


class Trotter:
    def __init__(self):
        self.calls = 0

    def step(self, a, b, dt):
        self.calls += 1
        qml.IsingXX(pnp.array(2 * a * dt, requires_grad=True), wires=[0, 1])
        qml.IsingZZ(qml.math.multiply(2 * b, dt), wires=[0, 1])


T = Trotter()
_dev = qml.device("default.qubit", wires=2)


def _circuit(alpha, beta, time, depth):
    dt = time / depth
    for _ in range(int(depth)):
        T.step(alpha, beta, dt)
    print("building circuit", alpha, beta)
    return qml.probs(wires=[0, 1])


trotterize = qml.QNode(_circuit, _dev)
'''),
    # a barrier between the Trotter layers (no decomposition: it was "cannot be rebuilt")
    "barrier": ("2023/fall_of_sqynet_100", '''
import pennylane as qml

@qml.qnode(dev)
def trotterize(alpha, beta, time, depth):
    for _ in range(depth):
        qml.IsingXX(2 * alpha * time / depth, wires=[0, 1])
        qml.Barrier(wires=[0, 1])
        qml.IsingZZ(2 * beta * time / depth, wires=[0, 1])
    return qml.probs(wires=[0, 1])
'''),
    # keyword call of the QNode, a module-level cache, numpy's float64, qml.math
    "keywords_cache_float64": ("2024/GHZ_inn", '''
import pennylane as qml
import numpy as np
_CACHE = {}


def _cz_cnot(c, t, p):
    qml.RY(-np.pi / 2, wires=t)
    qml.CZ(wires=[c, t])
    qml.DepolarizingChannel(p, wires=t)
    qml.RY(np.pi / 2, wires=t)


def GHZ_circuit(noise_param, n_qubits):
    qml.RY(np.pi / 2, wires=0)
    for i in range(1, n_qubits):
        _cz_cnot(0, i, noise_param)
    return qml.state()


def GHZ_fidelity(noise_param, n_qubits):
    key = (noise_param, n_qubits)
    if key not in _CACHE:
        node = qml.QNode(GHZ_circuit, qml.device("default.mixed", wires=n_qubits))
        rho = node(noise_param=noise_param, n_qubits=n_qubits)
        ghz = np.zeros(2 ** n_qubits)
        ghz[0] = ghz[-1] = 2 ** -0.5
        _CACHE[key] = np.float64(qml.math.real(ghz @ rho @ ghz))
    return _CACHE[key]
'''),
    "helpers_and_tensor_state": ("2024/to_view_or_not_to_view", '''
import pennylane as qml
from pennylane import numpy as np

dev = qml.device("default.qubit", wires=[0, 1, 2])


def _not_all(ws):
    for w in ws:
        qml.PauliX(w)


@qml.qnode(dev)
def or_circuit(state):
    qml.BasisState(np.array(state, requires_grad=False), wires=range(3))
    _not_all([0, 1])
    qml.Toffoli(wires=(0, 1, 2))
    _not_all([0, 1, 2])
    return qml.state()
'''),
    "ctrl_with_control_values_and_adjoint": ("2024/to_view_or_not_to_view", '''
import pennylane as qml
dev = qml.device("default.qubit", wires=[0, 1, 2])

@qml.qnode(dev)
def or_circuit(state):
    qml.BasisState(state, wires=[0, 1, 2])
    qml.ctrl(qml.PauliX, control=[0, 1], control_values=[0, 0])(wires=2)
    qml.adjoint(qml.PauliX)(wires=2)
    return qml.state()
'''),
    # a transform decorator on the QNode, a global phase and a visual barrier
    "transform_globalphase_barrier": ("2024/to_view_or_not_to_view", '''
import pennylane as qml
import numpy as onp
dev = qml.device("default.qubit", wires=[0, 1, 2])

@qml.transforms.cancel_inverses
@qml.qnode(dev)
def or_circuit(state):
    qml.BasisState(state, wires=[0, 1, 2])
    qml.PauliX(wires=0)
    qml.PauliX(wires=1)
    qml.Toffoli(wires=[0, 1, 2])
    qml.PauliX(wires=0)
    qml.PauliX(wires=1)
    qml.PauliX(wires=2)
    qml.GlobalPhase(2 * onp.pi)
    qml.Barrier(only_visual=True, wires=[0, 1, 2])
    return qml.state()
'''),
    "condition_by_comparison": ("2023/a_tale_of_timbits_400", '''
import pennylane as qml

def bell_preparation(wires):
    w = list(wires)
    qml.Hadamard(wires=w[0])
    for a, b in zip(w[:-1], w[1:]):
        qml.CNOT(wires=[a, b])

def emergency_gate_U(wire):
    qml.Hadamard(wire)

def setting_new_robot(output, wires):
    qml.cond(output == 1, qml.PauliZ)(wires=wires[0])
    qml.CNOT(wires=[wires[0], wires[1]])
'''),
    "callable_object_qfunc": ("2023/a_tale_of_timbits_400", '''
import pennylane as qml


class _Bell:
    """GHZ preparation as a callable object."""

    def __call__(self, wires):
        qml.Hadamard(wires=wires[0])
        for w in wires[1:]:
            qml.CNOT(wires=[wires[0], w])


bell_preparation = _Bell()


def emergency_gate_U(wire):
    qml.Hadamard(wires=wire)


def setting_new_robot(output, wires):
    qml.cond(output, qml.PauliZ)(wires=wires[0])
    qml.CNOT(wires=wires)
'''),
    "keyword_wire_and_qml_math_stack": ("2024/market_quantum_trinkets",
                                        _solution("2024/market_quantum_trinkets").replace(
        "np.array([np.real(cloning_machine(coefficients, w)[0, 0]) for w in (0, 1)])",
        "qml.math.stack([qml.math.real(cloning_machine(coefficients, wire=w)[0, 0]) "
        "for w in (0, 1)])")),
    "numpy_scalars_and_printing": ("2023/fall_of_sqynet_400",
                                   _solution("2023/fall_of_sqynet_400").replace(
        "    jx, jy, jz, h = couplings\n",
        "    jx, jy, jz, h = [np.float64(c) for c in couplings]\n"
        "    print('couplings', couplings, p)\n")),
    "qnode_options_differ": ("2024/hockey_night_cave", _solution("2024/hockey_night_cave").replace(
        "@qml.qnode(dev)  # noqa: F821 - `dev` is the template's",
        "@qml.qnode(dev, diff_method=None)  # noqa: F821")),
    "own_device_same_wires": ("2024/wormhole_airdrome", _solution("2024/wormhole_airdrome").replace(
        "@qml.qnode(dev)", "@qml.qnode(qml.device('default.qubit', wires=range(7)))")),
    # the honest code under the hidden draw of office_hijinks_300, from a class's methods
    "class_methods_hidden_draw": ("2023/office_hijinks_300", '''
import pennylane as qml
from pennylane import numpy as np


class Code:
    @staticmethod
    def left():
        qml.CNOT(wires=[0, 1])
        qml.CNOT(wires=[1, 2])

    @staticmethod
    def csx(control, target):
        qml.CRX(np.pi / 2, wires=[control, target])

    def right(self):
        qml.CNOT(wires=[1, 0])
        qml.CNOT(wires=[2, 1])
        qml.CNOT(wires=[1, 0])
        self.csx(1, 2)
        qml.CNOT(wires=[0, 1])
        qml.adjoint(self.csx)(1, 2)
        qml.CNOT(wires=[0, 1])
        qml.SWAP(wires=[0, 1])
        self.csx(1, 2)
        qml.SWAP(wires=[0, 1])


_code = Code()


def circuit_left():
    _code.left()


def circuit_right():
    _code.right()
'''),
    # top-level re.compile and a repeated template with its own run/check/test loop
    "template_copy_with_re_compile": ("2023/tutorial_1", '''
import json
import re
_NUMBER = re.compile(r"-?[0-9.]+")


def add_numbers(x, y):
    return float(_NUMBER.match(str(x)).group()) + float(_NUMBER.match(str(y)).group())

# Uneditable section #
def run(test_case_input: str) -> str:
    return "566"

def check(solution_output, expected_output):
    pass

test_cases = [['[1, 2]', '3']]
if __name__ == "__main__":
    for i, (a, b) in enumerate(test_cases):
        print(run(a))
'''),
}

# ---------------------------------------------------------------- attacks

OPS_4998 = "    for _ in range(4998):\n        qml.RX(0.001, wires=0)\n"

#: name -> (challenge, code, verdict the judge must give, a fragment of its message)
ATTACKS: dict[str, tuple[str, str, str, str]] = {
    # reads the PauliX the harness's U() queued before it and undoes it: no error correction.
    # Upstream passes it too; the trusted replay draws U()'s wire afresh (was AC)
    "reads_the_harness_error_from_the_queue": ("2023/office_hijinks_300", '''
import pennylane as qml

def circuit_left():
    qml.CNOT(wires=[0, 1])
    qml.CNOT(wires=[1, 2])
    qml.CNOT(wires=[1, 0])
    qml.CNOT(wires=[2, 1])

def circuit_right():
    ctx = qml.QueuingManager.active_context()
    ops = [getattr(k, "obj", k) for k in ctx.keys()]
    x = [o for o in ops if o.name == "PauliX"][-1]
    qml.PauliX(wires=x.wires)
''', "WA", "not quite right"),
    # run()'s str() is made to return an ndarray (was a judge error in the validator)
    "ndarray_where_true_false_text_is_due": ("2023/bending_bennets_laws_300", '''
def is_unsafe(alpha, beta, epsilon):
    import builtins
    import numpy
    real = builtins.str

    def fake(*a):
        builtins.str = real
        return numpy.array([1, 2])

    builtins.str = fake
    return True
''', "WA", "must be 'True' or 'False'"),
    # code run at load time from lambda bodies and decorators, which prepare() does not look into
    "load_time_patching_through_lambdas": ("2023/tutorial_1", '''
_ = (lambda: [__import__("numpy").__setattr__("allclose", lambda *a, **k: True),
              __import__("pennylane").numpy.__setattr__("allclose", lambda *a, **k: True)])()

@(lambda f: (__import__("builtins").__setattr__("isinstance", lambda *a: True), f)[1])
def add_numbers(x, y):
    return 7
''', "RE", ""),
    "solution_only_under_main_guard": ("2023/tutorial_1", '''
if __name__ == "__main__":
    def add_numbers(x, y):
        return x + y
''', "FORMAT", "does not define add_numbers"),
    # a non-daemon thread / atexit / __del__ rewrite the result file after the runner saved it:
    # it is still only an output, and the trusted check decides it
    "thread_rewrites_result_after_save": ("2023/tutorial_4", '''
import threading, time, json, os

def _late():
    for _ in range(200):
        time.sleep(0.01)
        try:
            if os.path.getsize("qce_result.json") > 0:
                break
        except OSError:
            pass
    with open("qce_result.json", "w") as fh:
        json.dump({"output": "True", "check": {"passed": True}}, fh)

def is_product(state, subsystem, wires):
    threading.Thread(target=_late).start()
    return "maybe"
''', "WA", "check() failed"),
    "atexit_rewrites_result": ("2023/tutorial_4", '''
def is_product(state, subsystem, wires):
    import atexit, json
    def late():
        with open("qce_result.json", "w") as fh:
            json.dump({"output": "True", "check": {"passed": True}}, fh)
    atexit.register(late)
    return "maybe"
''', "WA", "check() failed"),
    "del_at_shutdown_forges_and_exits": ("2023/tutorial_4", '''
class _Bomb:
    def __del__(self):
        import os, json
        with open("qce_result.json", "w") as fh:
            json.dump({"output": "False", "check": {"passed": True}}, fh)
        os._exit(0)

_keep = []
def is_product(state, subsystem, wires):
    _keep.append(_Bomb())
    return "maybe"
''', "WA", ""),
    # behaves honestly only when it believes it is not being recorded
    "detects_the_recorder_by_frame": ("2023/fall_of_sqynet_100", '''
import sys
import pennylane as qml

@qml.qnode(dev)
def trotterize(alpha, beta, time, depth):
    f = sys._getframe(1)
    recorded = f.f_code.co_name in ("recorded", "_queued", "queued_by") or "qce" in str(
        f.f_globals.get("__name__"))
    if not recorded:
        for _ in range(depth):
            qml.IsingXX(2 * alpha * time / depth, wires=[0, 1])
            qml.IsingZZ(2 * beta * time / depth, wires=[0, 1])
    else:
        qml.RX(0.3, wires=0)
    return qml.probs(wires=[0, 1])
''', "WA", "correct probabilities"),
    # right for run()'s calls, something else for the check()'s random couplings
    "different_circuit_when_called_from_check": ("2023/fall_of_sqynet_400",
                                                 _solution("2023/fall_of_sqynet_400").replace(
        "    jx, jy, jz, h = couplings\n",
        "    import sys\n"
        "    f = sys._getframe()\n"
        "    while f is not None and f.f_code.co_name != 'check':\n"
        "        f = f.f_back\n"
        "    if f is not None:\n"
        "        couplings = [c * 1.1 for c in couplings]\n"
        "    jx, jy, jz, h = couplings\n"), "WA", "does not Trotterize"),
    "wire_label_too_large": ("2024/to_view_or_not_to_view", '''
import pennylane as qml
dev = qml.device("default.qubit", wires=[0, 1, 2])

@qml.qnode(dev)
def or_circuit(state):
    qml.BasisState(state, wires=[0, 1, 2])
    qml.PauliX(wires=10**30)
    return qml.state()
''', "RE", "wires not found"),
    "returns_a_dict_of_measurements": ("2024/wormhole_airdrome", '''
import pennylane as qml
@qml.qnode(dev)
def wormhole_teleportation(g):
    SQRTX(wires=0)
    return {"z": qml.expval(qml.PauliZ(0))}
''', "RE", ""),
    # its own class named like the harness's gate, with another matrix: rebuilt as the real one
    "own_class_named_like_a_harness_gate": ("2024/wormhole_airdrome", '''
import pennylane as qml
import numpy as onp

@qml.qnode(dev)
def wormhole_teleportation(g):
    class Wormhole(qml.operation.Operation):
        num_params = 1
        num_wires = 1

        @staticmethod
        def compute_matrix(g):
            return onp.eye(2)

    Wormhole(g, wires=0)
    return qml.expval(qml.PauliZ(0))
''', "WA", "Wormhole: wrong number of wires"),
    # wire 4 set in the first call only (whose probabilities check() does not compare): each
    # call is replayed with its own circuit, as the contest ran it
    "answers_only_the_first_call": ("2024/fireworks_qutropolis", '''
import pennylane as qml
_n = [0]
def is_safe_configuration(oracle):
    _n[0] += 1
    if _n[0] == 1:
        qml.PauliX(wires=4)
''', "WA", "Wrong answer"),
    # allowed gates only for the check's own call (0.05, 3), CNOTs for run(): the output is the
    # program's (as upstream) and here also wrong at (0.05, 3)
    "allowed_gates_only_for_the_checks_arguments": ("2024/GHZ_inn", '''
import pennylane as qml
import pennylane.numpy as np

def GHZ_circuit(noise_param, n_qubits):
    if (noise_param, n_qubits) == (0.05, 3):
        qml.RY(0.1, wires=0)
        return qml.state()
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
    return float(np.real(ghz @ rho @ ghz))
''', "WA", "check() failed"),
    # an empty (0, 1) array per shot: np.allclose(output, numbers) broadcasts to nothing and is
    # vacuously true (upstream too); process_output must return a number (was AC)
    "process_output_returns_an_empty_array": ("2023/office_hijinks_500", '''
import numpy
import pennylane as qml


@qml.qnode(dev)
def circuit(U):
    U(wires=1)
    return qml.sample(wires=range(2))


def process_output(measurement):
    return numpy.zeros((0, 1))
''', "WA", "process_output() must return a finite real number"),
    # 5,000 operations a call, recorded and replayed for every call check() makes until an
    # oracle gets the wrong answer: a verdict, in time
    "circuit_check_with_5000_operations": ("2024/ruins_oasis",
                                           "import pennylane as qml\n\ndef circuit(oracle):\n"
                                           + OPS_4998 + "    oracle(wires=[0, 1, 2])\n",
                                           "WA", "Wrong answer"),
}


#: upstream checks that accept a program that does not solve the challenge; the judge gives
#: upstream's verdict, and the record says so in ``weak_check`` (docs/benchmarks/qhack.md, "Weak
#: public checks"; the programs are in solutions/weak/, test_weak_checks.py checks the records).
#: If one of these stops being AC, the judge became stricter than upstream: update both.
WEAK: dict[str, tuple[str, str]] = {
    name: (cid, (SOLUTIONS / "weak" / f"{cid}.py").read_text()) for name, cid in (
        ("ghz_fidelity_from_another_circuit", "2024/GHZ_inn"),
        ("market_fidelity_from_another_circuit", "2024/market_quantum_trinkets"),
        ("trotterization_without_noise", "2023/fall_of_sqynet_400"))}


#: (name, challenge, program) of every case: names unique across the three tables
CASES = ([(n, c, code) for n, (c, code) in STYLES.items()]
         + [(n, c, code) for n, (c, code, _, _) in ATTACKS.items()]
         + [(n, c, code) for n, (c, code) in WEAK.items()])


@pytest.fixture(scope="module")
def verdicts(qhack_problems, sandbox):
    return judge_cases(qhack.make_judge(env="era"), sandbox,
                       [(n, qhack_problems[c], code) for n, c, code in CASES])


@pytest.mark.upstream
@pytest.mark.parametrize("name", list(STYLES))
def test_correct_program_in_an_unusual_style_is_accepted(verdicts, name):
    v = verdicts[name]
    assert v.status == "AC", (name, v.message)


@pytest.mark.upstream
@pytest.mark.parametrize("name", list(ATTACKS))
def test_attack_gets_the_verdict_it_earns(verdicts, name):
    _, _, status, fragment = ATTACKS[name]
    assert_verdict(verdicts[name], status, fragment, name=name)


@pytest.mark.upstream
@pytest.mark.parametrize("name", list(WEAK))
def test_weak_upstream_check_is_reproduced(verdicts, name):
    v = verdicts[name]
    assert v.status == "AC", (name, v.message)


@pytest.mark.upstream
def test_ignoring_the_cpu_limit_signals_is_still_a_time_limit(qhack_problems, sandbox):
    code = """
def add_numbers(x, y):
    import signal
    for s in (signal.SIGXCPU, signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGALRM):
        try:
            signal.signal(s, signal.SIG_IGN)
        except Exception:
            pass
    while True:
        pass
"""
    judge = qhack.make_judge(env="era", time_scale=0.02, startup_allowance=3.0)
    v = judge_many(judge, [(qhack_problems["2023/tutorial_1"], code)], sandbox)[0]
    assert (v.status, v.tests_passed) == ("TLE", 0), v.message
    assert not v.details.get("judge_error")


@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.skipif(not os.environ.get("QCE_TEST_HEAVY"), reason="30,000 QNode calls, twice "
                    "(about 2.5 minutes): set QCE_TEST_HEAVY=1")
def test_value_rules_on_the_heavy_harnesses(qhack_problems, sandbox):
    # one coefficient for the check's loop and a constant model for its continuity test (was
    # AC, as upstream): generate_coefficients must return the 8 values the template asks for
    vacuous = """
import pennylane as qml


@qml.qnode(dev)
def model(alpha):
    return qml.probs(wires=range(3))


def generate_coefficients():
    return [0]
"""
    # a numpy integer and a 0-d array are numbers: the honest solution keeps its AC
    numpy_answers = _solution("2023/office_hijinks_500").replace(
        "return 2 if int(measurement[0]) == 1 else 4",
        "import numpy\n    return numpy.int64(2) if int(measurement[0]) == 1 else numpy.array(4.0)")
    # range(8) is as good as a list for the check's loop and len()
    as_range = _solution("2023/office_hijinks_200").replace("return [0, 1, 2, 3, 4, 5, 6, 7]",
                                                            "return range(8)")
    assert "range(8)" in as_range
    v, ok, ok_range = judge_many(qhack.make_judge(env="era"),
                                 [(qhack_problems["2023/office_hijinks_200"], vacuous),
                                  (qhack_problems["2023/office_hijinks_500"], numpy_answers),
                                  (qhack_problems["2023/office_hijinks_200"], as_range)],
                                 sandbox)
    assert (v.status, v.tests_passed) == ("WA", 0), v.message
    assert "generate_coefficients() must return 8 finite real numbers" in v.message
    assert ok.status == "AC", ok.message
    assert ok_range.status == "AC", ok_range.message


# ---------------------------------------------------------------- without the sandbox

@pytest.mark.upstream
def test_compile_attributes_do_not_drop_a_solution_statement(qhack_problems):
    rec = qhack_problems["2023/fall_of_sqynet_100"]
    code = ("import re\nimport pennylane as qml\nPAT = re.compile('x')\n\n"
            "@qml.compile()\n@qml.qnode(dev)\ndef trotterize(alpha, beta, time, depth):\n"
            "    return qml.probs(wires=[0, 1])\n\n"
            "compile('1', 'x', 'eval')\nY = eval('1')\nZ = builtins.exec\n")
    prepared = prepare(rec, code)
    assert "PAT = re.compile" in prepared.source and "@qml.compile()" in prepared.source
    assert "eval" not in prepared.source.replace("'eval'", "") and "builtins" not in \
        prepared.source
    with pytest.raises(FormatProblem):
        prepare(rec, "Y = 1\n")


@pytest.mark.upstream
@pytest.mark.parametrize("value", [
    np.array([1, 2]), np.array(["True", "x"]), np.array([], dtype=object), np.array([[1.0]]),
    payload.Opaque("Tensor", "tensor(1.)"), {"True": 1}, ("True",), [1, [2]], 1j, None, b"True",
])
def test_validation_never_raises_on_decoded_outputs(qhack_problems, value):
    for cid in [*checks.VALIDATORS, "2023/tutorial_1", "2024/GHZ_inn"]:
        rec = qhack_problems[cid]
        t = rec.tests[0]
        why = checks.validate(rec, value, t["expected"], t["input"])
        assert isinstance(why, str) and why, (cid, value)
