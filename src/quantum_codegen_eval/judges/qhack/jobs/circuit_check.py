"""The trusted side of a circuit check: the circuit the program emitted (:mod:`.circuit_emit`)
rebuilt from gate names this module knows, and the challenge decided by this job's own
simulation (or by the official ``run()`` and ``check()`` on stand-ins that replay the emitted
circuits).

Each check is ``check(ns, data, expected, test, spec)``: ``ns`` the harness's namespace (its
imports, the given code it needs, the official ``run()``/``check()``), ``data`` what the program
emitted, ``test`` the test's ``input``, ``spec`` the judge's data for the check.
"""

import json
import math

import numpy as np

from . import payload
from .gates import CONTROLLED, ORACLE, STANDARD_GATES

STANDARD = set(STANDARD_GATES)
PARAMS = {"RX": 1, "RY": 1, "RZ": 1, "PhaseShift": 1, "ControlledPhaseShift": 1, "CRX": 1,
          "CRY": 1, "CRZ": 1, "Rot": 3, "U1": 1, "U2": 2, "U3": 3, "IsingXX": 1, "IsingYY": 1,
          "IsingZZ": 1, "MultiRZ": 1}


def circuit_ops(data, allowed, wires, limit=5000):
    """[(gate class or None for the oracle, wires, params)] of the emitted circuit; an
    AssertionError (a wrong answer) when it is not a circuit of ``allowed`` gates on ``wires``.
    A controlled operation (``[CONTROLLED, control wires, control values, base]``, where
    ``allowed`` has ``CONTROLLED`` and the base, not the oracle) is a :class:`Controlled` in the
    class's place."""
    assert isinstance(data, dict) and isinstance(data.get("ops"), list), "no circuit emitted"
    assert len(data["ops"]) <= limit, "too many operations"
    out = []
    for item in data["ops"]:
        if isinstance(item, list) and len(item) == 4 and item[0] == CONTROLLED and \
                CONTROLLED in allowed:
            out.append(_controlled(item, allowed, wires))
        else:
            out.append(_op(item, allowed, wires))
    return out


def _op(item, allowed, wires):
    import pennylane as qml

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
    return cls, ws, ps


class Controlled:
    """A rebuilt controlled operation: ``Controlled(...)(*params, wires=base wires)`` queues
    ``qml.ctrl`` of the base on the control wires, as the program's ``qml.ctrl`` or
    ``MultiControlledX`` did (the simulator applies it whole, as the contest's did)."""

    def __init__(self, base, controls, values):
        self.base, self.controls, self.values = base, controls, values

    def __call__(self, *ps, wires):
        import pennylane as qml

        qml.ctrl(lambda: self.base(*ps, wires=wires), control=self.controls,
                 control_values=self.values)()


def _controlled(item, allowed, wires):
    _, controls, values, base = item
    cls, ws, ps = _op(base, set(allowed) - {ORACLE, CONTROLLED}, wires)
    assert isinstance(controls, list) and controls and isinstance(values, list) and \
        len(values) == len(controls) and all(type(v) is int and v in (0, 1) for v in values), \
        "controlled operation: malformed controls"
    assert len(set(controls)) == len(controls) and not set(controls) & set(ws) and all(
        type(w) in (int, str) and w in wires for w in controls), \
        f"controlled operation: bad control wires {str(controls)[:80]}"
    return Controlled(cls, controls, values), controls + ws, ps


def _matrix(ps, n_wires):
    """The matrix of an emitted QubitUnitary: 2^n x 2^n finite numbers (not checked for
    unitarity: PennyLane only warns, and the contest simulated the matrix as given)."""
    assert isinstance(ps, list) and len(ps) == 1 and 0 < n_wires <= 8, "QubitUnitary: bad matrix"
    try:
        m = payload.decode(ps[0])
    except Exception:
        raise AssertionError("QubitUnitary: malformed matrix") from None
    dim = 2 ** n_wires
    assert isinstance(m, np.ndarray) and m.dtype.kind in "iufc" and m.shape == (dim, dim) and \
        bool(np.all(np.isfinite(m))), "QubitUnitary: the matrix does not match its wires"
    return m


def apply_ops(ops, oracle=None):
    for cls, ws, ps in ops:
        if cls is None:
            oracle(wires=ws)
        elif isinstance(cls, Controlled):
            cls(*ps, wires=ws[len(cls.controls):])
        else:
            cls(*ps, wires=ws)


def mathematicians_at_resort(ns, data, expected, test, spec):
    """Only Hadamard, T and QFT (on 3 wires); probs[0] = probs[-1] = 1/2 on 5 wires."""
    import pennylane as qml

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


class AnyLabel:
    """Wire labels a replayed circuit may use (the official check restricts them further)."""

    def __contains__(self, w):
        return (type(w) is int and 0 <= w < 64) or (type(w) is str and 0 < len(w) <= 20)


def call_key(args, kwargs):
    return json.dumps([list(args), kwargs], sort_keys=True, default=repr)


def _stand_in(name, table):
    def replay(*args, **kwargs):
        key = call_key(args, kwargs)
        assert key in table, f"{name}{key[:80]}: a call the program did not emit"
        apply_ops(table[key])

    replay.__name__ = name
    return replay


def replay(ns, data, expected, test, spec):
    """The official ``run()`` and ``check()``, each solution function in ``spec["calls"]``
    replaced by a stand-in that replays the circuit emitted for the call's arguments (a call that
    was not emitted is a wrong answer); names in ``spec["forbid"]`` may not occur before
    expansion."""
    calls_of = spec["calls"]
    assert isinstance(data, dict) and set(data) == set(calls_of), "no circuits emitted"
    for name, calls in calls_of.items():
        emitted = data[name]
        assert isinstance(emitted, list) and len(emitted) == len(calls), f"{name}: no circuits"
        table = {}
        for (args, kwargs), circuit in zip(calls, emitted):
            assert isinstance(circuit, dict) and isinstance(circuit.get("names"), list)
            for forbidden in spec["forbid"]:
                assert forbidden not in circuit["names"], f"{name}() uses {forbidden}"
            table[call_key(args, kwargs)] = circuit_ops(
                circuit, STANDARD | {"QubitUnitary", CONTROLLED}, AnyLabel())
        ns[name] = _stand_in(name, table)
    return ns["check"](ns["run"](test["input"]), expected)


#: the checks a :class:`~quantum_codegen_eval.judges.qhack.circuits.CircuitCheck` names
CHECKS = {"mathematicians_at_resort": mathematicians_at_resort, "replay": replay}
