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
                  "ControlledPhaseShift", "CRX", "CRY", "CRZ", "Rot")

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


def tape_ops(fn, args=(), keep=None, limit=5000):
    fn = getattr(fn, "func", fn)
    with qml.tape.QuantumTape() as tape:
        fn(*args)
    names = [str(op.name) for op in tape.operations][:limit]
    if keep is not None:
        tape = tape.expand(depth=20, stop_at=lambda op: op.name in keep)
    ops = []
    for op in tape.operations:
        if len(ops) >= limit:
            raise ValueError(f"more than {limit} operations")
        ops.append([str(op.name), [int(w) for w in op.wires.tolist()],
                    [float(p) for p in op.parameters]])
    return {"names": names, "ops": ops}
'''

CHECK_COMMON = r'''
import math

PARAMS = {"RX": 1, "RY": 1, "RZ": 1, "PhaseShift": 1, "ControlledPhaseShift": 1, "CRX": 1,
          "CRY": 1, "CRZ": 1, "Rot": 3}
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
            type(w) is int and w in wires for w in ws), f"{name}: bad wires {str(ws)[:80]}"
        assert isinstance(ps, list) and len(ps) == PARAMS.get(name, 0) and all(
            type(p) in (int, float) and math.isfinite(p) for p in ps), f"{name}: bad parameters"
        cls = None if name == ORACLE else getattr(qml, name)
        n = getattr(cls, "num_wires", None)
        assert cls is None or type(n) is not int or n == len(ws), f"{name}: wrong wire count"
        out.append((cls, ws, ps))
    return out


def apply_ops(ops, oracle=None):
    for cls, ws, ps in ops:
        if cls is None:
            oracle(wires=ws)
        else:
            cls(*ps, wires=ws)
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
    ops = circuit_ops(data, set(PARAMS) | set(STANDARD) | {ORACLE}, range(3))
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
}

CHECK_COMMON = CHECK_COMMON + f"\nSTANDARD = set({STANDARD_GATES!r})\n"
