"""Trusted checks over circuits (``check_trust == "circuit"``), for challenges whose official
``check()`` needs the solution's live objects.

The program's job calls the solution's quantum function once inside a ``QuantumTape`` (with an
opaque placeholder for any oracle) and emits its operations as data: name, wires, parameters
(:data:`EMIT_COMMON`, plus one ``emit(g)`` per challenge). The trusted job rebuilds that circuit
from gate names it knows (:data:`CHECK_COMMON`), substitutes the harness's real oracles and
decides with its own simulation what the official ``check()`` asserts. Whatever the program does
to its own process, it can only pass by emitting a circuit that solves the challenge.
"""

from __future__ import annotations

from dataclasses import dataclass

#: emitted operations are expanded until every one is in this set (or the oracle placeholder)
STANDARD_GATES = ("Identity", "Hadamard", "PauliX", "PauliY", "PauliZ", "S", "T", "SX", "CNOT",
                  "CZ", "CY", "SWAP", "Toffoli", "CSWAP", "RX", "RY", "RZ", "PhaseShift",
                  "ControlledPhaseShift", "CRX", "CRY", "CRZ", "Rot", "U1", "U2", "U3",
                  "IsingXX", "IsingYY", "IsingZZ", "MultiRZ")

EMIT_COMMON = f"STANDARD_GATES = {STANDARD_GATES!r}\n" + r'''
import pennylane as qml

STANDARD = set(STANDARD_GATES)


class QCEOracle(qml.operation.Operation):
    """The placeholder the judge hands to the solution instead of a real oracle."""

    num_wires = getattr(qml.operation, "AnyWires", None)  # None on PennyLane >= 0.39
    grad_method = None
    num_params = 0


def placeholder_oracle(wires):
    return QCEOracle(wires=wires)


def _param(op, p):
    # a QubitUnitary keeps its matrix as given (the contest simulated it as written, unitary
    # or not); every other parameter is a real number
    return encode(qml.math.to_numpy(p)) if op.name == "QubitUnitary" else float(p)


def tape_ops(fn, args=(), keep=None, limit=5000):
    fn = getattr(fn, "func", fn)
    with qml.tape.QuantumTape() as tape:
        fn(*args)
    names = [str(op.name) for op in tape.operations][:limit]
    if keep is not None:
        keep = set(keep) | {"QubitUnitary"}
        tape = tape.expand(depth=20, stop_at=lambda op: op.name in keep)
    ops = []
    for op in tape.operations:
        if len(ops) >= limit:
            raise ValueError(f"more than {limit} operations")
        ops.append([str(op.name), [w if isinstance(w, str) else int(w) for w in op.wires.tolist()],
                    [_param(op, p) for p in op.parameters]])
    return {"names": names, "ops": ops}
'''

CHECK_COMMON = r'''
import math

import numpy as _cnp

PARAMS = {"RX": 1, "RY": 1, "RZ": 1, "PhaseShift": 1, "ControlledPhaseShift": 1, "CRX": 1,
          "CRY": 1, "CRZ": 1, "Rot": 3, "U1": 1, "U2": 2, "U3": 3, "IsingXX": 1, "IsingYY": 1,
          "IsingZZ": 1, "MultiRZ": 1}
ORACLE = "QCEOracle"


def circuit_ops(data, allowed, wires, limit=5000):
    """[(gate class or None for the oracle, wires, params)] of the emitted circuit; an
    AssertionError (a wrong answer) when it is not a circuit of ``allowed`` gates on ``wires``."""
    assert isinstance(data, dict) and isinstance(data.get("ops"), list), "no circuit emitted"
    assert len(data["ops"]) <= limit, "too many operations"
    out = []
    for item in data["ops"]:
        assert isinstance(item, list) and len(item) == 3, "malformed operation"
        name, ws, ps = item
        assert name in allowed, f"operation {str(name)[:80]} is not allowed here"
        assert isinstance(ws, list) and ws and len(set(ws)) == len(ws) and all(
            type(w) in (int, str) and w in wires for w in ws), f"{name}: bad wires {str(ws)[:80]}"
        if name == "QubitUnitary":
            ps = [_matrix(ps, len(ws))]
        else:
            assert isinstance(ps, list) and len(ps) == PARAMS.get(name, 0) and all(
                type(p) in (int, float) and math.isfinite(p) for p in ps), f"{name}: bad parameters"
        cls = None if name == ORACLE else getattr(qml, name)
        n = getattr(cls, "num_wires", None)
        assert cls is None or type(n) is not int or n == len(ws), f"{name}: wrong wire count"
        out.append((cls, ws, ps))
    return out


def _matrix(ps, n_wires):
    """The matrix of an emitted QubitUnitary: 2^n x 2^n finite numbers (not checked for
    unitarity: PennyLane only warns, and the contest simulated the matrix as given)."""
    assert isinstance(ps, list) and len(ps) == 1 and 0 < n_wires <= 8, "QubitUnitary: bad matrix"
    try:
        m = _qce_decode(ps[0])
    except Exception:
        raise AssertionError("QubitUnitary: malformed matrix") from None
    dim = 2 ** n_wires
    assert isinstance(m, _cnp.ndarray) and m.dtype.kind in "iufc" and m.shape == (dim, dim) and \
        bool(_cnp.all(_cnp.isfinite(m))), "QubitUnitary: the matrix does not match its wires"
    return m


def apply_ops(ops, oracle=None):
    for cls, ws, ps in ops:
        if cls is None:
            oracle(wires=ws)
        else:
            cls(*ps, wires=ws)
'''


#: ``check`` of a replay check: the official ``run()`` and ``check()`` (harness code) run in the
#: trusted job, the solution's argument-less quantum functions replaced by stand-ins that replay
#: the circuits the program emitted
REPLAY_CHECK = r'''
import json as _json

_official_check = check
REPLAY_OPS = {}


class AnyLabel:
    """Wire labels a replayed circuit may use (the official check restricts them further)."""

    def __contains__(self, w):
        return (type(w) is int and 0 <= w < 64) or (type(w) is str and 0 < len(w) <= 20)


def call_key(args, kwargs):
    return _json.dumps([list(args), kwargs], sort_keys=True, default=repr)


def _stand_in(name):
    def replay(*args, **kwargs):
        key = call_key(args, kwargs)
        assert key in REPLAY_OPS[name], f"{name}{key[:80]}: a call the program did not emit"
        apply_ops(REPLAY_OPS[name][key])

    replay.__name__ = name
    return replay


def check(data, expected):
    assert isinstance(data, dict) and set(data) == set(REPLAY), "no circuits emitted"
    for name, calls in REPLAY.items():
        emitted = data[name]
        assert isinstance(emitted, list) and len(emitted) == len(calls), f"{name}: no circuits"
        REPLAY_OPS[name] = {}
        for (args, kwargs), circuit in zip(calls, emitted):
            assert isinstance(circuit, dict) and isinstance(circuit.get("names"), list)
            for forbidden in FORBID:
                assert forbidden not in circuit["names"], f"{name}() uses {forbidden}"
            REPLAY_OPS[name][call_key(args, kwargs)] = circuit_ops(
                circuit, set(STANDARD) | {"QubitUnitary"}, AnyLabel())
        globals()[name] = _stand_in(name)
    return _official_check(run(TEST_INPUT), expected)
'''


@dataclass(frozen=True)
class CircuitCheck:
    """``emit``: source defining ``emit(g)`` (``g``: the program's globals) for the program's job;
    ``check``: source defining ``check(data, expected)`` for the trusted job; ``given``: names of
    the template's given definitions the trusted job also loads (harness code, e.g. an oracle
    maker)."""

    emit: str
    check: str
    given: tuple[str, ...] = ()
    #: replay checks: the solution functions replayed; ``given`` is then all given code, and the
    #: official run()/check() decide (names in ``forbid`` may not occur before expansion)
    replay: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    #: the official run() hands the solution a hidden oracle: the program's job neither calls
    #: run() nor gets the test's input (its circuit sees only the placeholder)
    hide_input: bool = False


def replay_check(calls: dict[str, list[tuple]], forbid: tuple[str, ...] = ()) -> CircuitCheck:
    """A replay check. ``calls``: for each solution function, the positional argument tuples the
    harness calls it with (``[()]`` for an argument-less function); one circuit is emitted per
    call, and a call the harness makes that was not emitted is a wrong answer."""
    spec = {name: [[list(args), {}] for args in arg_list] for name, arg_list in calls.items()}
    emit = ("def emit(g):\n"
            f"    calls = {spec!r}\n"
            "    return {name: [tape_ops(g[name], tuple(args), STANDARD) for args, _ in todo]\n"
            "            for name, todo in calls.items()}\n")
    head = f"REPLAY = {spec!r}\nFORBID = {forbid!r}\n"
    return CircuitCheck(emit=emit, check=head + REPLAY_CHECK, replay=tuple(calls), forbid=forbid)


CIRCUIT_CHECKS: dict[str, CircuitCheck] = {
    # only Hadamard, T and QFT (on 3 wires); probs[0] = probs[-1] = 1/2 on 5 wires
    "2024/mathematicians_at_resort": CircuitCheck(
        emit="def emit(g):\n    return tape_ops(g['circuit'])\n",
        check=r'''
def check(data, expected):
    ops = circuit_ops(data, {"Hadamard", "T", "QFT"}, range(5))
    for cls, ws, _ in ops:
        if cls is qml.QFT:
            assert len(ws) == 3, "QFT must act on 3 wires"
    dev = qml.device("default.qubit", wires=5)

    @qml.qnode(dev)
    def rebuilt():
        apply_ops(ops)
        return qml.probs(wires=range(5))

    probs = rebuilt()
    assert np.isclose(probs[0], 0.5) and np.isclose(probs[-1], 0.5), "The state is not correct"
'''),
    # one oracle query (any number of standard gates) on 3 wires; probs(wire 2)[1] == target for
    # every oracle
    "2024/ruins_oasis": CircuitCheck(
        emit=("def emit(g):\n    keep = STANDARD | {'QCEOracle'}\n"
              "    return tape_ops(g['circuit'], (placeholder_oracle,), keep)\n"),
        check=r'''
def check(data, expected):
    ops = circuit_ops(data, set(PARAMS) | set(STANDARD) | {ORACLE, "QubitUnitary"}, range(3))
    assert [cls for cls, _, _ in ops].count(None) == 1, "You can use the oracle once."
    dev = qml.device("default.qubit", wires=3)
    for _ in range(100):
        oracle, target = oracle_maker()

        @qml.qnode(dev)
        def rebuilt():
            apply_ops(ops, oracle)
            return qml.probs(wires=2)

        assert np.isclose(rebuilt()[1], target), "Wrong answer!"
''', given=("oracle_maker",)),
    # run() builds the oracle from the test's workers and hands it to circuit(oracle): the
    # program's circuit is emitted with the placeholder (never with the real oracle, whose
    # closure holds the workers), and the official run() and check() run in the trusted job on
    # it, the oracle run() builds substituted
    "2024/lazy_workers_terminal": CircuitCheck(
        emit=("def emit(g):\n    keep = STANDARD | {'QCEOracle'}\n"
              "    return tape_ops(g['circuit'], (placeholder_oracle,), keep)\n"),
        check=r'''
_official_check = check


def check(data, expected):
    ops = circuit_ops(data, set(PARAMS) | set(STANDARD) | {ORACLE, "QubitUnitary"}, range(9))

    def circuit(oracle):
        apply_ops(ops, oracle)

    globals()["circuit"] = circuit
    return _official_check(run(TEST_INPUT), expected)
''', replay=("circuit",), hide_input=True),
    # quantum functions called with known arguments: replayed under the official run()/check()
    "2023/bending_bennets_laws_200": replay_check({
        "encode": [(i, j, k) for i in range(2) for j in range(2) for k in range(2)],
        "decode": [()]}),
    "2023/bending_bennets_laws_400": replay_check({"zenda_operator": [()], "copier": [()],
                                                   "printer": [()]}),
    "2023/bending_bennets_laws_500": replay_check({"zenda_operator": [()], "reece_operator": [()],
                                                   "magic_operator": [()]}),
    "2024/three_shipping_companies": replay_check({"U": [()]}, forbid=("QubitUnitary",)),
}

CHECK_COMMON = CHECK_COMMON + f"\nSTANDARD = set({STANDARD_GATES!r})\n"
